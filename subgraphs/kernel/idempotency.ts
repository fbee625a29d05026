import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import type { RequestContext } from './context.ts';
import { AppError, badInput } from './errors.ts';
import { isUuid } from './ids.ts';
import { systemQuery } from './query.ts';
import type { Runtime } from './runtime.ts';

/** What a request answered: its HTTP status and body text (MCP: the tool result as JSON). */
export interface Answer {
  status: number;
  body: string;
}

/** The database, and the clock that says when a key expires. */
export type IdempotencyRuntime = Pick<Runtime, 'db' | 'clock'>;

export interface IdempotentRequest {
  /** Whose key it is: `idempotencyScope` of the request's headers. */
  scope: string;
  key: string;
  /** `requestHash` of what is asked, so a key reused for something else is refused. */
  fingerprint: string;
  /** How the client sent the key, named by the 400 of an invalid one. */
  field?: string;
  /** An answer not to keep besides 429 and 5xx (a GraphQL error that says INTERNAL in a 200). */
  transient?: (answer: Answer) => boolean;
}

/** A key is kept a day (Stripe's window); after that it is free again. */
const KEPT_MS = 24 * 3600_000;
/** A claim still running after this long belongs to a process that died: with nothing committed, it may be taken over. */
const ABANDONED_MS = 5 * 60_000;
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;
/** VALID_KEY as JSON Schema, for the OpenAPI document and the MCP tool schemas. */
export const KEY_SCHEMA = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Objects with sorted keys, so the same JSON written another way hashes the same. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
        )
      : value;

export const requestHash = (...parts: unknown[]) => sha256(JSON.stringify(canonical(parts)));

/**
 * The facades do not resolve the principal, so a key belongs to what identifies the caller in
 * the headers a subgraph sees: the credential, the tenant header and the host (storefront domain).
 */
export const idempotencyScope = (headers: Record<string, string | null | undefined>) =>
  requestHash(headers.authorization ?? null, headers['x-company-id'] ?? null, headers['x-forwarded-host'] ?? null);

/**
 * The claim a keyed request runs under travels to the subgraphs in this internal header (scope,
 * key and the claim's own id, as JSON), so the transaction that makes the write also marks the key
 * (`markCommitted`). The router sets it from the running request (router/edge.ts
 * `forwardedHeadersOf`), never from a client's headers.
 */
export const IDEMPOTENCY_CLAIM_HEADER = 'x-idempotency-claim';

interface Claim {
  scope: string;
  key: string;
  /** This claim of the key: a retry that takes an abandoned key over makes a new one. */
  id: string;
}

/** The claim of the keyed request running in this async context, while it runs (a worker started in it must not inherit it). */
const running = new AsyncLocalStorage<{ header: string; open: boolean }>();

/** The claim header of the keyed request this code runs for, if any. */
export function currentClaim(): string | undefined {
  const store = running.getStore();
  return store?.open ? store.header : undefined;
}

/** A claim header as `markCommitted` takes it; anything malformed is no claim. */
export function parseClaim(header: string | undefined): Claim | undefined {
  if (!header) return undefined;
  try {
    const [id, scope, key] = JSON.parse(header) as unknown[];
    return isUuid(id) && typeof scope === 'string' && typeof key === 'string' ? { id, scope, key } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Called by ctx.transaction before it commits, for a request that runs under an Idempotency-Key:
 * the key is marked `committed` (with the id of what was written, when the result has one) in the
 * writing transaction, so a retry after a crash finds that the write was made and does not make it
 * again. When a retry has taken the key over meanwhile (this request ran past ABANDONED_MS), the
 * write is refused and rolled back: the retry makes it instead.
 */
export async function markCommitted(tx: Pick<RequestContext, 'query' | 'now'>, header: string, result: unknown): Promise<void> {
  const claim = parseClaim(header);
  if (!claim) return;
  const id = (result as { id?: unknown } | null)?.id;
  const marked = await tx.query
    .updateTable('kernel.idempotency_key')
    .set((eb) => ({
      state: 'committed',
      committedAt: eb.fn.coalesce('committedAt', eb.val(tx.now())),
      resultId: eb.fn.coalesce('resultId', eb.val(typeof id === 'string' ? id : null)),
    }))
    .where('scope', '=', claim.scope)
    .where('key', '=', claim.key)
    .where('claim', '=', claim.id)
    .where('state', 'in', ['running', 'committed'])
    .returning('key')
    .execute();
  if (marked.length) return;
  // Not ours to mark: answered already (work that outlived its request) or gone; or another claim holds it.
  const holder = await tx.query
    .selectFrom('kernel.idempotency_key')
    .select('claim')
    .where('scope', '=', claim.scope)
    .where('key', '=', claim.key)
    .executeTakeFirst();
  if (holder && holder.claim !== claim.id)
    throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A retry with the same Idempotency-Key took this request over; it was not carried out');
}

/**
 * Test only, refused in production: the process kills itself right after committing a write that
 * an Idempotency-Key guards, before the key's answer is stored, as a crash there would.
 */
const CRASH_HOOK = 'IDEMPOTENCY_TEST_CRASH_AFTER_COMMIT';
const crashAfterCommit = process.env[CRASH_HOOK] === '1';
if (crashAfterCommit && process.env.NODE_ENV === 'production') throw new Error(`${CRASH_HOOK} is a test hook: it is refused in production`);

/** Called by ctx.transaction after a guarded write commits. */
export function afterGuardedCommit(): void {
  if (crashAfterCommit) process.kill(process.pid, 'SIGKILL');
}

/** What a retry is told when the first request's write committed but its answer was never stored. */
function answerLost(row: { committedAt: Date | string | null; resultId: string | null }): AppError {
  // No entity describes this table, so its timestamps come as PostgreSQL wrote them.
  const committedAt = row.committedAt ? new Date(row.committedAt).toISOString() : undefined;
  return new AppError(
    'CONFLICT',
    `The first request with this Idempotency-Key was carried out${committedAt ? ` at ${committedAt}` : ''}, but its answer was lost; it is not run again. Look up its result${row.resultId ? ` (${row.resultId})` : ''} instead of retrying`,
    { ...(committedAt ? { committedAt } : {}), ...(row.resultId ? { resultId: row.resultId } : {}) },
  );
}

/**
 * Runs a request once per key (Stripe's Idempotency-Key): the first claims the key and its answer
 * is stored; a repeat of the same request gets that answer (`replayed`) without running; the key
 * with another request is IDEMPOTENCY_KEY_REUSED, and while the first still runs
 * IDEMPOTENCY_KEY_IN_USE. Answers that ask to retry later (429, 5xx) are not kept.
 *
 * The write the request makes marks the key `committed` in its own transaction (`markCommitted`),
 * so a first request that dies, or fails, after its write committed and before its answer is
 * stored never runs again: a repeat is told so with 409 CONFLICT (`answerLost`). A claim still
 * running after ABANDONED_MS with nothing committed may be taken over by a repeat.
 *
 * Statements go straight to the ORM's connection, each on its own: never call this inside a transaction.
 */
export async function withIdempotency(
  runtime: IdempotencyRuntime,
  request: IdempotentRequest,
  run: () => Promise<Answer>,
): Promise<Answer & { replayed: boolean }> {
  const { scope, key, fingerprint, field = 'Idempotency-Key', transient } = request;
  if (!VALID_KEY.test(key)) throw badInput(field, 'must be 1 to 255 printable ASCII characters');
  const q = systemQuery(runtime.db.orm.em);
  const keys = 'kernel.idempotency_key';
  const now = runtime.clock.now();
  const claim = randomUUID();
  // One statement claims a free key, an expired one or an abandoned one; the loser of a race gets no row.
  const claimed = await q
    .insertInto(keys)
    .values({ scope, key, requestHash: fingerprint, state: 'running', createdAt: new Date(now), claim })
    .onConflict((oc) =>
      oc
        .columns(['scope', 'key'])
        .doUpdateSet((eb) => ({
          requestHash: eb.ref('excluded.requestHash'),
          state: 'running',
          responseStatus: null,
          responseBody: null,
          createdAt: eb.ref('excluded.createdAt'),
          claim: eb.ref('excluded.claim'),
          committedAt: null,
          resultId: null,
        }))
        .where((eb) =>
          eb.or([
            eb(`${keys}.createdAt`, '<', new Date(now - KEPT_MS)),
            eb.and([eb(`${keys}.state`, '=', 'running'), eb(`${keys}.createdAt`, '<', new Date(now - ABANDONED_MS))]),
          ]),
        ),
    )
    .returning('key')
    .execute();
  if (!claimed.length) {
    const row = await q
      .selectFrom(keys)
      .select(['requestHash', 'state', 'responseStatus', 'responseBody', 'createdAt', 'committedAt', 'resultId'])
      .where('scope', '=', scope)
      .where('key', '=', key)
      .executeTakeFirst();
    if (row && row.requestHash !== fingerprint) throw new AppError('IDEMPOTENCY_KEY_REUSED', `Idempotency-Key ${key} was already used for a different request`);
    if (row?.state === 'done') return { status: row.responseStatus!, body: row.responseBody!, replayed: true };
    // Committed by a request that has since died, or that ended without an answer to keep.
    if (row?.state === 'unanswered' || (row?.state === 'committed' && new Date(row.createdAt).getTime() < now - ABANDONED_MS)) throw answerLost(row);
    // No row: the first request has just given up its claim (a 5xx); the client's retry will run.
    throw new AppError('IDEMPOTENCY_KEY_IN_USE', `A request with Idempotency-Key ${key} is still running; retry later`);
  }
  const mine = <T extends { where(column: 'scope' | 'key' | 'claim', op: '=', value: string): T }>(statement: T): T =>
    statement.where('scope', '=', scope).where('key', '=', key).where('claim', '=', claim);
  // Nothing committed: the key is free again. A committed write keeps it: a repeat is told the write was made.
  const release = async () => {
    await mine(q.deleteFrom(keys).where('state', '=', 'running')).execute();
    await mine(q.updateTable(keys).set({ state: 'unanswered' }).where('state', '=', 'committed')).execute();
  };
  const store = { header: JSON.stringify([claim, scope, key]), open: true };
  let answer: Answer;
  try {
    answer = await running.run(store, run);
  } catch (error) {
    await release();
    throw error;
  } finally {
    store.open = false;
  }
  if (answer.status === 429 || answer.status >= 500 || transient?.(answer)) await release();
  else await mine(q.updateTable(keys).set({ state: 'done', responseStatus: answer.status, responseBody: answer.body })).execute();
  return { ...answer, replayed: false };
}

/**
 * `withIdempotency` for an HTTP face: the response of `run` is kept and replayed with
 * `Idempotent-Replayed: true`. Replays say JSON, which every body of these faces is.
 */
export async function idempotentFetch(runtime: IdempotencyRuntime, request: IdempotentRequest, run: () => Promise<Response>): Promise<Response> {
  let first: Response | undefined;
  const answer = await withIdempotency(runtime, request, async () => {
    first = await run();
    return { status: first.status, body: await first.text() };
  });
  const headers = first ? new Headers(first.headers) : new Headers({ 'content-type': 'application/json; charset=utf-8', 'idempotent-replayed': 'true' });
  headers.delete('content-length');
  return new Response(answer.body, { status: answer.status, headers });
}
