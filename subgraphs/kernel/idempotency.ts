import { createHash } from 'node:crypto';
import { AppError, badInput } from './errors.ts';
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
/** A claim still running after this long belongs to a process that died: it may be taken over. */
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
      ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]))
      : value;

export const requestHash = (...parts: unknown[]) => sha256(JSON.stringify(canonical(parts)));

/**
 * The facades do not resolve the principal, so a key belongs to what identifies the caller in
 * the headers a subgraph sees: the credential, the tenant header and the host (storefront domain).
 */
export const idempotencyScope = (headers: Record<string, string | null | undefined>) =>
  requestHash(headers.authorization ?? null, headers['x-company-id'] ?? null, headers['x-forwarded-host'] ?? null);

/**
 * Runs a request once per key (Stripe's Idempotency-Key): the first claims the key and its answer
 * is stored; a repeat of the same request gets that answer (`replayed`) without running; the key
 * with another request is IDEMPOTENCY_KEY_REUSED, and while the first still runs
 * IDEMPOTENCY_KEY_IN_USE. Answers that ask to retry later (429, 5xx) are not kept. Statements go
 * straight to the ORM's connection, each on its own: never call this inside a transaction.
 */
export async function withIdempotency(runtime: IdempotencyRuntime, request: IdempotentRequest, run: () => Promise<Answer>): Promise<Answer & { replayed: boolean }> {
  const { scope, key, fingerprint, field = 'Idempotency-Key', transient } = request;
  if (!VALID_KEY.test(key)) throw badInput(field, 'must be 1 to 255 printable ASCII characters');
  const conn = runtime.db.orm.em.getConnection();
  const now = runtime.clock.now();
  // One statement claims a free key, an expired one or an abandoned one; the loser of a race gets no row.
  const claimed = await conn.execute<unknown[]>(
    `insert into kernel.idempotency_key as k (scope, key, request_hash, state, created_at) values (?, ?, ?, 'running', ?)
     on conflict (scope, key) do update set request_hash = excluded.request_hash, state = 'running', response_status = null, response_body = null, created_at = excluded.created_at
       where k.created_at < ? or (k.state = 'running' and k.created_at < ?)
     returning key`,
    [scope, key, fingerprint, new Date(now), new Date(now - KEPT_MS), new Date(now - ABANDONED_MS)],
  );
  if (!claimed.length) {
    const [row] = await conn.execute<{ request_hash: string; state: string; response_status: number; response_body: string }[]>(
      'select request_hash, state, response_status, response_body from kernel.idempotency_key where scope = ? and key = ?',
      [scope, key],
    );
    if (row && row.request_hash !== fingerprint) throw new AppError('IDEMPOTENCY_KEY_REUSED', `Idempotency-Key ${key} was already used for a different request`);
    // No row: the first request has just given up its claim (a 5xx); the client's retry will run.
    if (row?.state !== 'done') throw new AppError('IDEMPOTENCY_KEY_IN_USE', `A request with Idempotency-Key ${key} is still running; retry later`);
    return { status: row.response_status, body: row.response_body, replayed: true };
  }
  const release = () => conn.execute('delete from kernel.idempotency_key where scope = ? and key = ?', [scope, key]);
  let answer: Answer;
  try {
    answer = await run();
  } catch (error) {
    await release();
    throw error;
  }
  if (answer.status === 429 || answer.status >= 500 || transient?.(answer)) await release();
  else await conn.execute(`update kernel.idempotency_key set state = 'done', response_status = ?, response_body = ? where scope = ? and key = ?`, [answer.status, answer.body, scope, key]);
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
