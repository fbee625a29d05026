import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import { recordInTransaction, type PendingAudit } from './audit.ts';
import type { Config } from './config.ts';
import { constraintError } from './constraints.ts';
import type { Database } from './database.ts';
import { AppError } from './errors.ts';
import type { DomainEvents, EventName } from './events.ts';
import { afterGuardedCommit, IDEMPOTENCY_CLAIM_HEADER, markCommitted } from './idempotency.ts';
import { isUuid, newId } from './ids.ts';
import type { PendingJob } from './jobs/index.ts';
import { toPage, type Page, type PageRequest } from './pagination.ts';
import { resolvePrincipal, type HeaderReader, type Principal } from './principal.ts';
import type { Runtime } from './runtime.ts';
import { anyOf, propertyOf, scopedQuery, type QueryScope } from './query.ts';
import { queryPageRead, queryRead, queryRows, queryStatementOf, runQueryStatement, type QueryRead } from './reads.ts';
import type { RowOf, Tables } from './tables.ts';
import { tenantOf } from './tenancy.ts';

/** What a transaction collects for its commit: jobs and events to write with it, work to do after it. */
interface TransactionState {
  trx: Transaction<Tables>;
  jobs: PendingJob[];
  after: (() => void | Promise<void>)[];
  /** Queues the commit wrote to, whose local workers are woken after it. */
  queues: string[];
}

type QueryBatch = { read: QueryRead; resolve: (row: Record<string, unknown>, i: number) => void; reject: (error: unknown) => void }[];

/** A select built with `ctx.query`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any select of any tables
type AnySelect<O> = SelectQueryBuilder<any, any, O>;

/**
 * What a resolver and a service see of one request: its entity manager (scoped to the caller's
 * company), its principal, per-request DataLoaders, the clock, and `transaction()`, the one way
 * to write.
 */
export class RequestContext {
  readonly em: EntityManager;
  private resolved?: Promise<Principal>;
  private current?: Principal;
  private loaders = new Map<string, DataLoader<unknown, unknown>>();
  private tx?: TransactionState;
  /** Reads waiting for the end of this turn of the event loop, to run as one statement. */
  private queryBatch?: QueryBatch;
  private scope?: QueryScope & { companyId: string | undefined };
  /** The merchant write this request is making (set by the audit middleware), recorded by its transaction. */
  audit?: PendingAudit;

  constructor(
    readonly runtime: Runtime,
    readonly header: HeaderReader,
  ) {
    this.em = runtime.db.orm.em.fork() as EntityManager;
  }

  /** Background work (event handlers, jobs): the system itself, scoped to one company when given. */
  static system(runtime: Runtime, companyId: string | null): RequestContext {
    const ctx = new RequestContext(runtime, () => undefined);
    ctx.current = companyId ? { kind: 'system', companyId } : { kind: 'anonymous', companyId: null };
    ctx.resolved = Promise.resolve(ctx.current);
    if (companyId) ctx.em.setFilterParams('tenant', { companyId });
    return ctx;
  }

  get db(): Database {
    return this.runtime.db;
  }

  get config(): Config {
    return this.runtime.config;
  }

  /** The current time from the process's clock (a test moves it instead of sleeping). */
  now(): Date {
    return new Date(this.runtime.clock.now());
  }

  /** Resolves the principal once and scopes the entity manager to its company. */
  authenticate(): Promise<Principal> {
    this.resolved ??= resolvePrincipal(this.db, this.config.jwtSecret, this.header).then((principal) => {
      this.current = principal;
      if (principal.companyId) this.em.setFilterParams('tenant', { companyId: principal.companyId });
      return principal;
    });
    return this.resolved;
  }

  get principal(): Principal {
    if (!this.current) throw new AppError('INTERNAL', 'Principal used before authentication');
    return this.current;
  }

  /**
   * The signed-in customer, in code behind a field declared `@Requires('customer')` (the guard has
   * already refused anyone else; this only gives the type).
   */
  get customer(): Extract<Principal, { kind: 'customer' }> {
    const p = this.principal;
    if (p.kind !== 'customer') throw new AppError('INTERNAL', 'A customer is read on a field that does not require one');
    return p;
  }

  /** The caller's company; resolvers that reach here have passed a tenant requirement. */
  get companyId(): string {
    const id = this.principal.companyId;
    if (!id) throw new AppError('INTERNAL', 'No company in this request');
    return id;
  }

  /**
   * A separate view of this request scoped to the company a magic token belongs to (survey
   * invitations name their tenant, not a header). The request's own scope is left untouched, so
   * other fields of the same operation keep the caller's company.
   */
  scopedTo(companyId: string): RequestContext {
    const em = this.db.orm.em.fork() as EntityManager;
    em.setFilterParams('tenant', { companyId });
    return Object.create(this, {
      em: { value: em },
      companyId: { get: () => companyId },
      loaders: { value: new Map() },
      scope: { value: undefined, writable: true },
      queryBatch: { value: undefined, writable: true },
    });
  }

  get inTransaction(): boolean {
    return this.tx !== undefined;
  }

  /**
   * Runs `work` in one database transaction and gives it `tx`: this request bound to the
   * transaction (its entity manager, its own DataLoaders, `publish`, `runAt`, `afterCommit`).
   * Inside it, use only `tx`: PGlite has one connection, and another path into it would wait for
   * this transaction forever. Changes are flushed, then the jobs and events written, then, for a
   * request made under an Idempotency-Key, the key marked as committed (kernel/idempotency.ts), then
   * it commits; a violated constraint declared by a subgraph becomes its catalogue error. Nested
   * calls join the open transaction.
   */
  async transaction<T>(work: (tx: RequestContext) => Promise<T>): Promise<T> {
    if (this.tx) return work(this);
    let state!: TransactionState;
    const claim = this.header(IDEMPOTENCY_CLAIM_HEADER);
    try {
      const result = await this.em.transactional(async (em) => {
        state = { trx: em.getTransactionContext() as Transaction<Tables>, jobs: [], after: [], queues: [] };
        const tx: RequestContext = Object.create(this, {
          em: { value: em },
          loaders: { value: new Map() },
          tx: { value: state },
          scope: { value: undefined, writable: true },
        });
        const value = await work(tx);
        await em.flush();
        await recordInTransaction(tx, value);
        state.queues = await this.runtime.jobs.write(state.trx, state.jobs);
        // Last: the key's row stays locked only for the commit.
        if (claim) await markCommitted(tx, claim, value);
        return value;
      });
      if (claim) afterGuardedCommit();
      this.runtime.jobs.nudge(state.queues);
      for (const fn of state.after) await fn();
      return result;
    } catch (error) {
      throw constraintError(error) ?? error;
    }
  }

  private requireTx(what: string): TransactionState {
    if (!this.tx) throw new AppError('INTERNAL', `${what} needs a transaction: call it on the tx of ctx.transaction()`);
    return this.tx;
  }

  /** Publishes a domain event with this transaction: delivered to every subscriber if, and only if, it commits. */
  publish<N extends EventName>(name: N, payload: DomainEvents[N]): void {
    this.requireTx('publish').jobs.push({ event: { id: newId(), name, companyId: this.companyId, occurredAt: this.now().toISOString(), payload } });
  }

  /** Queues a job with this transaction, to run at `at` (now when absent). */
  runAt(queue: string, at: Date | null, data: object): void {
    this.requireTx('runAt').jobs.push({ queue, data, ...(at ? { startAfter: at } : {}) });
  }

  /** Runs after this transaction commits (never when it rolls back). */
  afterCommit(fn: () => void | Promise<void>): void {
    this.requireTx('afterCommit').after.push(fn);
  }

  // ---- SQL: ctx.query builds every statement (kernel/query.ts); reads run batched (below). ----

  /**
   * The query builder, scoped to this context's company (kernel/query.ts): every tenant table a
   * statement names is limited to it. In `ctx.transaction()`, the transaction's. Run a write, or a
   * read that locks (`forUpdate`), with its own `execute`; run other reads with `rows`, `first`
   * or `page`, which batch the reads of one turn into one statement.
   */
  get query(): Kysely<Tables> {
    return this.queryScope().query;
  }

  private queryScope(): QueryScope {
    const companyId = tenantOf(this.em);
    if (!this.scope || this.scope.companyId !== companyId) this.scope = { ...scopedQuery(this.em, companyId), companyId };
    return this.scope;
  }

  /** The rows of a select built with `ctx.query`. */
  async all<O>(select: AnySelect<O>): Promise<O[]> {
    const compiled = select.compile();
    const read = queryRead(compiled, this.queryScope().values.datesOf(compiled.query));
    return this.readQuery(read, (row, i) => queryRows<O>(read, row[`rows${i}`], propertyOf));
  }

  /** The first row of a select built with `ctx.query` (it is limited to one), or null. */
  async first<O>(select: AnySelect<O>): Promise<O | null> {
    const [row] = await this.all(select.limit(1));
    return row ?? null;
  }

  /** A page of a select built with `ctx.query` (ordered by it) and the count of all its rows, read together. */
  async page<O>(select: AnySelect<O>, req: PageRequest): Promise<Page<O>> {
    const all = select.compile();
    const read = queryPageRead(all, select.limit(req.limit).offset(req.offset).compile(), this.queryScope().values.datesOf(all.query));
    return this.readQuery(read, (row, i) => toPage(queryRows<O>(read, row[`rows${i}`], propertyOf), Number(row[`total${i}`]), req));
  }

  /**
   * A row of a table by id, batched with the other lookups of this request into one statement
   * (null when absent or another tenant's).
   */
  find<T extends keyof Tables>(table: T, id: string): Promise<RowOf<T> | null> {
    return this.loader<string, RowOf<T> | null>(`find:${String(table)}`, async (ids) => {
      const q = this.query as unknown as Kysely<Record<string, { id: string }>>;
      const rows = await this.all(
        q
          .selectFrom(table as string)
          .selectAll()
          .where('id', '=', anyOf(ids.filter(isUuid))),
      );
      const found = new Map(rows.map((r) => [r.id, r as unknown as RowOf<T>]));
      return ids.map((key) => found.get(key) ?? null);
    }).load(id);
  }

  /**
   * Reads made in the same turn of the event loop (the DataLoaders of one list's fields) travel as
   * one statement; in a transaction each runs at once, in the transaction's order.
   */
  private readQuery<R>(read: QueryRead, result: (row: Record<string, unknown>, i: number) => R): Promise<R> {
    if (this.tx) return this.runQueries([read]).then((row) => result(row, 0));
    return new Promise<R>((resolve, reject) => {
      let batch = this.queryBatch;
      if (!batch) {
        const pending: QueryBatch = (this.queryBatch = []);
        setImmediate(() => {
          if (this.queryBatch === pending) this.queryBatch = undefined;
          void this.flushQueries(pending);
        });
        batch = pending;
      }
      batch.push({
        read,
        resolve: (row, i) => {
          try {
            resolve(result(row, i));
          } catch (error) {
            reject(error);
          }
        },
        reject,
      });
    });
  }

  private async flushQueries(batch: QueryBatch): Promise<void> {
    try {
      const row = await this.runQueries(batch.map((b) => b.read));
      batch.forEach((b, i) => b.resolve(row, i));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      // One read's failure is its own: run them apart so the others still answer.
      for (const b of batch) this.runQueries([b.read]).then((row) => b.resolve(row, 0), b.reject);
    }
  }

  private runQueries(reads: QueryRead[]): Promise<Record<string, unknown>> {
    return runQueryStatement(this.db, queryStatementOf(reads), this.tx !== undefined, async (text, params) => {
      const kysely = this.em.getKysely() as unknown as Kysely<Tables>;
      return (await kysely.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, [...params]))).rows;
    });
  }

  /** One DataLoader per name and request (and per transaction), so list fields batch their lookups. */
  loader<K, V>(name: string, batch: (keys: readonly K[]) => Promise<(V | Error)[]>): DataLoader<K, V> {
    let loader = this.loaders.get(name) as DataLoader<K, V> | undefined;
    if (!loader) {
      loader = new DataLoader<K, V>(batch);
      this.loaders.set(name, loader);
    }
    return loader;
  }
}
