import { rssOf } from './cpu.ts';
import { sleep } from './proc.ts';
import { startEmbedded, type Started } from './targets.ts';

export interface Startup {
  freshMs: number[];
  existingMs: number[];
}

/**
 * Cold start of `npm start` on PGlite: launch until /readyz answers 200, with a fresh data folder
 * (creates the database and runs every migration), then again on the folder it left. `rounds`
 * times each; the last instance keeps running and is returned (for the memory figures).
 */
export async function coldStarts(rounds: number, progress: (line: string) => void): Promise<Startup & { last: Started }> {
  const result: Startup = { freshMs: [], existingMs: [] };
  let last: Started | undefined;
  for (let round = 1; round <= rounds; round++) {
    const fresh = await startEmbedded('npm start (fresh data folder)');
    result.freshMs.push(fresh.readyMs);
    await fresh.server.stop();
    const existing = await startEmbedded('npm start (existing data folder)', { dataDir: fresh.dataDir });
    result.existingMs.push(existing.readyMs);
    progress(`  start · round ${round}/${rounds}: fresh ${(fresh.readyMs / 1000).toFixed(2)} s, existing ${(existing.readyMs / 1000).toFixed(2)} s`);
    if (round < rounds) await existing.server.stop();
    else last = existing;
  }
  return { ...result, last: last! };
}

/** Resident memory of a server, after letting start-up work settle for a second. */
export async function settledRss(server: Started): Promise<number> {
  await sleep(1000);
  return rssOf(server.server.pid).rssMb;
}
