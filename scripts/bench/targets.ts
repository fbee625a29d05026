import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { CpuGroup } from './cpu.ts';
import { answersGraphql, freePort, launch, readyz, ROOT, tempDir, waitUntil, type Server } from './proc.ts';

/**
 * What every server of the bench gets: quiet message log, a fixed secret shared by all processes,
 * and rate limits and quotas out of reach: the bench is one client sending thousands of requests
 * a second, and measures the work of counting them, not refusals.
 */
const COMMON_ENV = {
  NODE_ENV: 'development',
  OUTBOX_LOG: 'silent',
  GATEWAY_LOG: 'error',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0001',
  PLANS: JSON.stringify({ free: { limits: { requestsPerMinute: 1_000_000_000, apiCallsPerMonth: 1_000_000_000_000 } } }),
  STOREFRONT_REQUESTS_PER_MINUTE: '1000000000',
};

export interface Started {
  server: Server;
  base: string;
  /** Milliseconds from launch until it answered. */
  readyMs: number;
}

/** The embedded topology (`npm start`): PGlite in `dataDir` (a fresh temp folder by default) or PostgreSQL. */
export async function startEmbedded(name: string, db: { databaseUrl?: string; dataDir?: string } = {}): Promise<Started & { dataDir: string }> {
  const port = await freePort();
  const dataDir = db.dataDir ?? tempDir('bench-data-');
  const base = `http://127.0.0.1:${port}`;
  const server = launch(name, 'router', [], { ...COMMON_ENV, PORT: String(port), PUBLIC_URL: base, DATA_DIR: dataDir, DATABASE_URL: db.databaseUrl ?? '' });
  // Asked every 10 ms: the start figure is what it measures to within 10 ms, not 50.
  const readyMs = await waitUntil(server, readyz(base), 120_000, 10);
  return { server, base, readyMs, dataDir };
}

export interface Distributed {
  subgraphs: Map<string, Started>;
  router: Started;
  apollo: Started;
  stop(): Promise<void>;
}

/** Subgraph names and the URLs the checked-in supergraph gives them (its join__Graph enum). */
const GRAPH = /@join__graph\(name: "([^"]+)", url: "([^"]*)"\)/g;

/**
 * The distributed topology on PostgreSQL: each subgraph its own process (`npm run start:subgraph`),
 * our router over them (`npm run start:router`), and @apollo/gateway over the same
 * processes with the same supergraph (schema/supergraph.graphql, URLs pointed at these processes).
 */
export async function startDistributed(databaseUrl: string): Promise<Distributed> {
  const supergraph = readFileSync(join(ROOT, 'schema', 'supergraph.graphql'), 'utf8');
  const names = [...supergraph.matchAll(GRAPH)].map((m) => m[1]);
  const urls = new Map<string, string>();
  for (const name of names) urls.set(name, `http://127.0.0.1:${await freePort()}/graphql`);
  const dataDir = tempDir('bench-dist-');
  const env = { ...COMMON_ENV, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, HOST: '127.0.0.1' };
  const started: Started[] = [];
  const stop = () => Promise.all(started.map((s) => s.server.stop())).then(() => undefined);
  try {
    const subgraphs = new Map<string, Started>();
    // Each migrates before it listens. The first is started alone: on an empty database, processes
    // starting together race to create pg-boss's schema and one dies (duplicate pg_namespace key).
    const start = async (group: string[]) => {
      const launched = group.map((name) => {
        const url = urls.get(name)!;
        const server = launch(`subgraph ${name}`, 'subgraph', [name], { ...env, PORT: new URL(url).port });
        started.push({ server, base: url.replace(/\/graphql$/, ''), readyMs: 0 });
        return { name, url, server, t0: performance.now() };
      });
      for (const l of launched) {
        await waitUntil(l.server, answersGraphql(l.url));
        subgraphs.set(l.name, { server: l.server, base: l.url.replace(/\/graphql$/, ''), readyMs: performance.now() - l.t0 });
      }
    };
    await start(names.slice(0, 1));
    await start(names.slice(1));
    const urlEnv = Object.fromEntries(names.map((n) => [`SUBGRAPH_${n.toUpperCase()}_URL`, urls.get(n)!]));
    const routerPort = await freePort();
    const routerBase = `http://127.0.0.1:${routerPort}`;
    const routerServer = launch('router (distributed)', 'distributedRouter', [], {
      ...env,
      ...urlEnv,
      TOPOLOGY: 'distributed',
      PORT: String(routerPort),
      PUBLIC_URL: routerBase,
    });
    started.push({ server: routerServer, base: routerBase, readyMs: 0 });
    const router = { server: routerServer, base: routerBase, readyMs: await waitUntil(routerServer, readyz(routerBase)) };

    const supergraphFile = join(dataDir, 'supergraph.graphql');
    writeFileSync(
      supergraphFile,
      supergraph.replace(GRAPH, (_, name: string) => `@join__graph(name: "${name}", url: "${urls.get(name)}")`),
    );
    const apolloPort = await freePort();
    const apolloBase = `http://127.0.0.1:${apolloPort}`;
    const apolloServer = launch('@apollo/gateway', 'apollo', [], { ...COMMON_ENV, PORT: String(apolloPort), SUPERGRAPH_FILE: supergraphFile });
    started.push({ server: apolloServer, base: apolloBase, readyMs: 0 });
    const apollo = { server: apolloServer, base: apolloBase, readyMs: await waitUntil(apolloServer, answersGraphql(`${apolloBase}/graphql`)) };
    return { subgraphs, router, apollo, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A database of its own on the DATABASE_URL server for one part of the run, dropped at the end. */
export class BenchDatabases {
  private readonly admin: pg.Client;
  private readonly created: string[] = [];
  private readonly stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);

  constructor(private readonly url: string) {
    this.admin = new pg.Client({ connectionString: url });
  }

  async open() {
    await this.admin.connect();
  }

  async create(suffix: string): Promise<string> {
    const name = `bench_${this.stamp}_${suffix}`;
    await this.admin.query(`create database "${name}"`);
    this.created.push(name);
    const u = new URL(this.url);
    u.pathname = `/${name}`;
    return u.toString();
  }

  /** The server processes (backends) serving a database: their CPU is the database's share of a request. */
  backends(databaseUrl: string): CpuGroup {
    const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
    return {
      name: 'postgres',
      pids: async () => (await this.admin.query('select pid from pg_stat_activity where datname = $1', [name])).rows.map((r) => Number(r.pid)),
    };
  }

  async close() {
    for (const name of this.created)
      await this.admin.query(`drop database if exists "${name}" with (force)`).catch((e) => console.error(`could not drop ${name}: ${e.message}`));
    await this.admin.end();
  }
}
