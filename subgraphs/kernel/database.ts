import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { MikroORM as PgliteORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresORM } from '@mikro-orm/postgresql';
import type { EntitySchema, EventSubscriber, FlushEventArgs } from '@mikro-orm/core';
import type { Config } from './config.ts';
import { lockDataFolder } from './data-lock.ts';
import { PostgresNamingStrategy } from './naming.ts';

export interface Database {
  orm: PostgresORM;
  kind: 'pglite' | 'postgresql';
  /** The embedded instance, when there is one (tests snapshot it). */
  pglite?: PGlite;
  close(): Promise<void>;
}

export interface OpenOptions {
  entities: EntitySchema[];
  /** An already created PGlite instance (tests restore one from a snapshot). */
  pglite?: PGlite;
  debug?: boolean;
  /** Settings every session starts with (a test clock's opt-in, `pgboss.test_clock`). */
  sessionSettings?: Record<string, string>;
}

/**
 * PostgreSQL's buffer pool inside PGlite's WebAssembly memory. initdb's default (128 MB) grows that
 * memory past its initial 128 MB and is touched as it fills: ~100 MB more resident memory than
 * this, for data that also sits in the operating system's file cache. A whole embedded
 * deployment's working set fits in this; PostgreSQL proper is configured on its own server.
 */
const PGLITE_SHARED_BUFFERS = '16MB';

/** Creates an embedded PGlite with the extensions our migrations need. */
export async function createPglite(dataDir?: string, loadDataDir?: Blob): Promise<PGlite> {
  const pgliteWasmModule = await compiledPglite();
  return PGlite.create({
    dataDir,
    loadDataDir,
    pgliteWasmModule,
    extensions: { btree_gist },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
}

let compiling: Promise<WebAssembly.Module> | undefined;

/**
 * PostgreSQL's WebAssembly (PGlite's, 10 MB), compiled once for every PGlite of the process. V8
 * compiles it on its own threads, so what the main thread does meanwhile overlaps it: the process
 * asks for it before it has other work to do (prepareDatabase), rather than when PGlite starts,
 * which then waited for the file and the compilation (~40 ms of a start, idle).
 */
function compiledPglite(): Promise<WebAssembly.Module> {
  // Read whole at once: the compilation runs while the main thread is busy, which would hold up
  // the completion of an asynchronous read (and the compilation after it) until it is done.
  return (compiling ??= WebAssembly.compile(readFileSync(join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.wasm'))));
}

/**
 * Starts what opening the database can do ahead, on other threads (PGlite's WebAssembly compiled),
 * for a caller with work of its own to do before it opens it.
 */
export function prepareDatabase(config: Config, options: Pick<OpenOptions, 'pglite'> = {}): void {
  if (!config.databaseUrl && !options.pglite) void compiledPglite();
}

/**
 * A migrated, empty PGlite data folder (`npm run build` makes one beside the built entry points). A
 * new data folder is copied from it (~0.3 s) instead of running initdb and every migration (~2 s);
 * the migrations still run after it, so a snapshot older than the code only leaves the newer ones
 * to apply. Unset (the TypeScript entry points, tests): initdb.
 */
let newDataFolderSnapshot: string | undefined;

export function restoreNewDataFoldersFrom(snapshotFolder: string | undefined): void {
  newDataFolderSnapshot = snapshotFolder;
}

/**
 * Every SQL statement this process sends, for tests and benchmarks that check a read does not
 * grow with its result (no N+1). Counting is one increment per statement.
 */
export const sqlLog = { count: 0, recent: [] as string[], keep: false };

/** Counts a statement; the ORM's (its `onQuery` hook) and those sent around it (kernel/reads.ts on PGlite). */
export function logStatement(sql: string): string {
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
    onQuery: logStatement,
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
    const orm = await PostgresORM.init({
      ...common,
      clientUrl: config.databaseUrl,
      pool: { min: 0, max: 10 },
      ...(settings.length ? { driverOptions: { options: settings.join(' ') } } : {}),
    });
    return { orm, kind: 'postgresql', close: () => orm.close(true) };
  }
  let pglite = options.pglite;
  let release = () => {};
  if (!pglite) {
    const dir = join(config.dataDir, 'pglite');
    // Two PGlite instances on one folder silently lose writes: one process per folder.
    release = lockDataFolder(config.dataDir);
    try {
      // PGlite resumes a folder that has PG_VERSION and runs initdb in one that has not.
      if (newDataFolderSnapshot && !existsSync(join(dir, 'PG_VERSION'))) restoreDataFolder(newDataFolderSnapshot, dir);
      mkdirSync(dir, { recursive: true });
      pglite = await createPglite(dir);
    } catch (error) {
      release();
      throw error;
    }
  }
  const orm = (await PgliteORM.init({ ...common, dbName: 'app', driverOptions: { pglite } })) as unknown as PostgresORM;
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
 * Copies a snapshot data folder to `dir`, whole or not at all: next to it first, then renamed.
 * Node copies a folder in C++, a system call per file: ~0.25 s for this one on the bench machine,
 * where unpacking the same folder from a tarball with node-tar took 0.5–1 s (most of a first start).
 */
export function restoreDataFolder(snapshotFolder: string, dir: string): void {
  if (!existsSync(join(snapshotFolder, 'PG_VERSION'))) throw new Error(`${snapshotFolder}: not a PGlite data folder (no PG_VERSION)`);
  const partial = `${dir}.restoring`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(snapshotFolder, partial, { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}
