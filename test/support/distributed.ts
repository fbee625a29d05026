import type { AddressInfo } from 'node:net';
import { createApp, type App } from '../../router/app.ts';
import { MODULES } from '../../router/modules.ts';
import { startSubgraphServer } from '../../router/subgraph-server.ts';
import { testServer } from './server.ts';

export interface DistributedServer {
  url: string;
  app: App;
  subgraphs: Awaited<ReturnType<typeof startSubgraphServer>>[];
}

let started: Promise<DistributedServer> | undefined;

/**
 * The distributed topology beside the worker's embedded server (test/support/server.ts), on the same
 * PostgreSQL database: every subgraph its own HTTP server (as `npm run start:subgraph` runs one) and
 * a router reaching them over HTTP. One per test worker, shared by its files, as the embedded server
 * is. PostgreSQL only: PGlite cannot be shared between servers.
 */
export function distributedServer(): Promise<DistributedServer> {
  started ??= start();
  return started;
}

async function start(): Promise<DistributedServer> {
  const { config } = await testServer();
  if (!config.databaseUrl) throw new Error('The distributed topology needs PostgreSQL (DATABASE_URL)');
  const subgraphs = await Promise.all(MODULES.map((m) => startSubgraphServer(config, m, 0)));
  const subgraphUrls = Object.fromEntries(MODULES.map((m, i) => [m.name, subgraphs[i].url]));
  const app = await createApp(config, { topology: 'distributed', subgraphUrls });
  await new Promise<void>((r) => app.server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { url, app, subgraphs };
}
