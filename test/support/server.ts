import 'reflect-metadata';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { createApp, type App } from '../../router/app.ts';
import { VIA_HEADER } from '../../subgraphs/kernel/audit.ts';
import { loadConfig, type Config } from '../../subgraphs/kernel/config.ts';
import { createPglite } from '../../subgraphs/kernel/database.ts';
import { createDatabase } from './database.ts';
import { freePort } from './local-servers.ts';

export interface TestServer {
  url: string;
  app: App;
  config: Config;
  /** Every operation the gateway's pipeline executed, as a plugin registered once sees it (test/platform/pipeline.test.ts). */
  seen: SeenOperation[];
}

export interface SeenOperation {
  operationName?: string;
  /** The interface and route or tool it came through (`rest GET /v6/…`, `mcp list_services`), as the audit log names it. */
  via?: string;
  requestId?: string;
}

/** A plugin that records what it sees, registered like any other. */
function probePlugin(seen: SeenOperation[]): GatewayPlugin {
  return {
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      seen.push({
        operationName: args.operationName ?? undefined,
        via: request?.headers.get(VIA_HEADER) ?? undefined,
        requestId: request?.headers.get('x-request-id') ?? undefined,
      });
      if (seen.length > 10_000) seen.splice(0, 5_000);
    },
  };
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
  const seen: SeenOperation[] = [];
  const { app, config } = await startRouter(
    { DATA_DIR: mkdtempSync(join(tmpdir(), 'platform-worker-')), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    [probePlugin(seen)],
  );
  return { url: config.publicUrl, app, config, seen };
}

/**
 * A router of its own beside the worker's, with settings of its own (`env`, as the environment
 * gives them): on PGlite a fresh copy of the run's snapshot, on PostgreSQL a database of its own
 * (the plans a start stores are the whole database's), dropped by `close`.
 */
export async function ownServer(env: Record<string, string>): Promise<{ url: string; app: App; databaseUrl?: string; close(): Promise<void> }> {
  const base = inject('databaseUrl');
  const database = base ? await createDatabase(base, 'own') : undefined;
  const databaseUrl = database?.url;
  const { app, config } = await startRouter({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'platform-own-')),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  return {
    url: config.publicUrl,
    app,
    databaseUrl,
    async close() {
      await app.close();
      await database?.drop();
    },
  };
}

/**
 * The real HTTP entry point in the embedded topology on a free loopback port, its public URL that
 * port's (known before the app is created), on PGlite a copy of the run's snapshot.
 */
async function startRouter(env: Record<string, string>, plugins?: GatewayPlugin[]): Promise<{ app: App; config: Config }> {
  const snapshot = inject('snapshotFile');
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: 'test-secret-test-secret-test-secret-42',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...env,
  });
  const pglite = snapshot ? await createPglite(undefined, new Blob([readFileSync(snapshot)])) : undefined;
  const app = await createApp(config, { pglite, plugins });
  await new Promise<void>((r) => app.server.listen(port, '127.0.0.1', r));
  return { app, config };
}
