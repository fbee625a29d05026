import 'reflect-metadata';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkedInSupergraph, composeSupergraph, subgraphUrl } from '../router/compose.ts';
import { startPlatform } from '../router/platform.ts';
import { MODULES, SUBGRAPH_PORTS } from '../router/modules.ts';
import { loadConfig } from '../subgraphs/kernel/config.ts';
import { createPglite } from '../subgraphs/kernel/database.ts';

/**
 * `node dist/snapshot.js [--supergraph FILE] [--pglite FILE]`, run by scripts/build.ts with the
 * bundle it just built: what a built start would otherwise work out each time.
 *
 * --supergraph: schema/supergraph.graphql if the bundled subgraphs still print as schema/*.graphql,
 *   composed from them otherwise (with a warning: `npm run compose` is due), for router/compose.ts.
 * --pglite: a migrated, empty PGlite data folder as a `dumpDataDir` tarball, which a new DATA_DIR is
 *   restored from (subgraphs/kernel/database.ts). Every migration and the job queue's schema, as a
 *   start makes them; no start-up hooks, so no demo company: the first start seeds its own.
 */
const argument = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const supergraphFile = argument('--supergraph');
const pgliteFile = argument('--pglite');
if (!supergraphFile && !pgliteFile) throw new Error('Usage: node dist/snapshot.js [--supergraph FILE] [--pglite FILE]');

/** Written whole or not at all. */
function write(file: string, data: string | Buffer) {
  writeFileSync(`${file}.tmp`, data);
  renameSync(`${file}.tmp`, file);
}

if (supergraphFile) {
  const subgraphs = await Promise.all(MODULES.map(async (m) => ({ name: m.name, schema: await m.buildSchema(), url: subgraphUrl(m.name, SUBGRAPH_PORTS[m.name], {}) })));
  let sdl = checkedInSupergraph(subgraphs);
  if (!sdl) {
    console.warn('[build] schema/*.graphql differ from the subgraphs: the build composed the supergraph (run `npm run compose` to update them)');
    sdl = (await composeSupergraph(subgraphs)).supergraphSdl;
  }
  write(supergraphFile, sdl);
}

if (pgliteFile) {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-snapshot-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'development', JWT_SECRET: 'snapshot-only-snapshot-only-snapshot-only' });
    const pglite = await createPglite();
    const platform = await startPlatform(config, MODULES.map((m) => ({ ...m, onStart: undefined })), { pglite, consume: false });
    await platform.stop();
    await pglite.query('checkpoint');
    const dump = await pglite.dumpDataDir('none');
    await pglite.close();
    write(pgliteFile, Buffer.from(await dump.arrayBuffer()));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
