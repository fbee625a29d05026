import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../subgraphs/kernel/config.ts';
import { createApp, serveBuilt } from './app.ts';
import { subgraphUrl } from './compose.ts';
import { MODULES, SUBGRAPH_PORTS } from './modules.ts';
import { runMain } from './startup.ts';

/**
 * `npm run start:distributed`: each subgraph its own process on its own port, and the router in
 * this one reaching them over HTTP. PostgreSQL only (DATABASE_URL).
 */
const config = loadConfig();
if (!config.databaseUrl) {
  console.error('The distributed topology needs DATABASE_URL (PostgreSQL), e.g. postgres://postgres@127.0.0.1:5432/platform');
  process.exit(1);
}

// Each subgraph runs as this process does: built (dist/subgraph-server.cjs beside dist/distributed.cjs,
// through scripts/launch.mjs with this process's Node flags) or from source under tsx.
const built = import.meta.url.endsWith('.cjs');
const [command, script] = built
  ? [process.execPath, [...process.execArgv, join(import.meta.dirname, '..', 'scripts', 'launch.mjs'), 'subgraph-server']]
  : [join(import.meta.dirname, '..', 'node_modules', '.bin', 'tsx'), [join(import.meta.dirname, 'subgraph-server.ts')]];
const children: ChildProcess[] = MODULES.map((m) =>
  spawn(command, [...script, m.name], { stdio: 'inherit', env: { ...process.env, PORT: String(SUBGRAPH_PORTS[m.name]), HOST: '127.0.0.1' } }),
);
for (const child of children) child.on('exit', (code) => code && !stopping && shutdown(`a subgraph exited with ${code}`, 1));

// Built, the router takes what the build worked out beside it (router/app.ts).
serveBuilt(import.meta.url);

let app: Awaited<ReturnType<typeof createApp>> | undefined;
runMain(async () => {
  // Subgraphs migrate and seed before they listen; wait until each answers.
  for (const m of MODULES) await waitFor(subgraphUrl(m.name, SUBGRAPH_PORTS[m.name]));
  app = await createApp(config, { topology: 'distributed' });
  app.server.listen(config.port, () => {
    console.log(`Router on ${config.publicUrl} over ${MODULES.length} subgraph process(es)`);
  });
});

let stopping = false;
function shutdown(reason: string, code = 0) {
  if (stopping) return;
  stopping = true;
  console.log(`${reason}: stopping`);
  for (const child of children) child.kill('SIGTERM');
  void (app ? app.close() : Promise.resolve()).finally(() => process.exit(code));
}
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));

async function waitFor(url: string) {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not start`);
}
