import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM, type EntityManager } from '@mikro-orm/postgresql';
import type { EntitySchema, EventSubscriber, FlushEventArgs } from '@mikro-orm/core';
import type { Config } from './config.ts';
import { PostgresNamingStrategy } from './naming.ts';

export type { EntityManager };

export interface Database {
  orm: PostgresORM;
  kind: 'pglite' | 'postgresql';
  /** The embedded instance, when there is one (tests snapshot it). */
  pglite?: PGlite;
  close(): Promise<void>;
}

export interface OpenOptions {
  entities: EntitySchema<any, any>[];
  /** An already created PGlite instance (tests restore one from a snapshot). */
  pglite?: PGlite;
  debug?: boolean;
  /** Settings every session starts with (a test clock's opt-in, `pgboss.test_clock`). */
  sessionSettings?: Record<string, string>;
}

/** Creates an embedded PGlite with the extensions our migrations need. */
export function createPglite(dataDir?: string, loadDataDir?: Blob): Promise<PGlite> {
  return PGlite.create({ dataDir, loadDataDir, extensions: { btree_gist } });
}

/**
 * Every SQL statement this process sends, for tests and benchmarks that check a read does not
 * grow with its result (no N+1). Counting is one increment per statement.
 */
export const sqlLog = { count: 0, recent: [] as string[], keep: false };

function onQuery(sql: string): string {
  sqlLog.count++;
  if (sqlLog.keep) sqlLog.recent.push(sql);
  return sql;
}

/**
 * `ctx.transaction()` is the one way to write: a flush outside a transaction is a bug (it would
 * skip the transaction's jobs, events, audit and constraint mapping), refused here for every entity.
 */
const writesInTransactions: EventSubscriber = {
  onFlush(args: FlushEventArgs) {
    if (!args.em.isInTransaction() && args.uow.getChangeSets().length) {
      throw new Error(`Write outside ctx.transaction(): ${[...new Set(args.uow.getChangeSets().map((c) => c.meta.className))].join(', ')}`);
    }
  },
};

export async function openDatabase(config: Config, options: OpenOptions): Promise<Database> {
  const common = {
    subscribers: [writesInTransactions],
    entities: options.entities,
    debug: options.debug ?? process.env.SQL_DEBUG === '1',
    onQuery,
    // Entities are defined with defineEntity; no reflection or discovery from files.
    discovery: { warnWhenNoEntities: false },
    // Constraint names as PostgreSQL makes them, like the hand-written migrations.
    namingStrategy: PostgresNamingStrategy,
    allowGlobalContext: false,
    // Every tenant row carries its own company_id and is filtered by it; joining each referenced
    // row only to filter it again (MikroORM's default for relations) cost a quarter of list reads.
    autoJoinRefsForFilters: false,
  };
  if (config.databaseUrl) {
    // Startup options reach every pooled session, whichever path takes it from the pool.
    const settings = Object.entries(options.sessionSettings ?? {}).map(([k, v]) => `-c ${k}=${v}`);
    const orm = await PostgresORM.init({ ...common, clientUrl: config.databaseUrl, pool: { min: 0, max: 10 }, ...(settings.length ? { driverOptions: { options: settings.join(' ') } } : {}) });
    return { orm, kind: 'postgresql', close: () => orm.close(true) };
  }
  let pglite = options.pglite;
  let release = () => {};
  if (!pglite) {
    const dir = join(config.dataDir, 'pglite');
    release = lockDataDir(config.dataDir);
    mkdirSync(dir, { recursive: true });
    pglite = await createPglite(dir);
  }
  const orm = (await PgliteORM.init({ ...common, dbName: 'app', driverOptions: { pglite } } as any)) as unknown as PostgresORM;
  // One session for the life of the instance.
  for (const [k, v] of Object.entries(options.sessionSettings ?? {})) await pglite.query(`select set_config($1, $2, false)`, [k, v]);
  const instance = pglite;
  return {
    orm,
    kind: 'pglite',
    pglite: instance,
    async close() {
      await orm.close(true);
      if (!options.pglite) await instance.close();
      release();
    },
  };
}

/**
 * Two processes on one PGlite folder silently lose writes, so the folder is locked by a pid file.
 * A lock left by a dead process is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'server.lock');
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new Error(`${dataDir} is in use by process ${pid}; stop it or set DATA_DIR to another folder`);
    }
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e.code === 'EPERM';
  }
}
