import 'reflect-metadata';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createApp, type App } from '../../router/app.ts';
import { loadConfig, type Config } from '../../subgraphs/kernel/config.ts';
import { createPglite } from '../../subgraphs/kernel/database.ts';

export interface TestServer {
  url: string;
  app: App;
  config: Config;
}

let started: Promise<TestServer> | undefined;

/**
 * One server per test worker, shared by its files (vitest `isolate: false`): the real HTTP entry
 * point in the embedded topology, on a PGlite restored from the run's snapshot or on the run's
 * PostgreSQL database.
 */
export function testServer(): Promise<TestServer> {
  started ??= start();
  return started;
}

async function start(): Promise<TestServer> {
  const databaseUrl = inject('databaseUrl');
  const snapshot = inject('snapshotFile');
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-worker-'));
  const base = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', JWT_SECRET: 'test-secret-test-secret-test-secret-42', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const pglite = snapshot ? await createPglite(undefined, new Blob([readFileSync(snapshot)])) : undefined;
  // The public URL is known once the port is: the app is created after listening on a free one.
  const probe = (await import('node:http')).createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const config = { ...base, port, publicUrl: `http://127.0.0.1:${port}` };
  const app = await createApp(config, { pglite });
  await new Promise<void>((r) => app.server.listen(port, '127.0.0.1', r));
  return { url: config.publicUrl, app, config };
}
