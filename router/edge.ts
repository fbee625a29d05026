import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { VIA_HEADER } from '../subgraphs/kernel/audit.ts';
import { ERROR_STATUS, type ErrorCode } from '../subgraphs/kernel/errors.ts';
import { coercionError, isGraphqlCoercionMessage } from '../subgraphs/kernel/graphql-words.ts';
import { currentClaim, IDEMPOTENCY_CLAIM_HEADER } from '../subgraphs/kernel/idempotency.ts';

/**
 * What every request meets before an interface sees it: a request id, and for a request with a
 * body, its media type and its size. A body is read here once, within the limit, and handed on
 * as `body`/`rawBody` (the names @whatwg-node/server and @hono/node-server, under the MCP SDK,
 * take an already-read body from), so no interface reads an unbounded stream.
 */

/** The interfaces, each answering a refusal in its own shape. */
export type Surface = 'rest' | 'graphql' | 'mcp';

export function surfaceOf(path: string): Surface | undefined {
  if (path === '/graphql') return 'graphql';
  if (path === '/mcp' || path.startsWith('/mcp/')) return 'mcp';
  if (path.startsWith('/v6/') || path.startsWith('/connect/v1/')) return 'rest';
  return undefined;
}

/**
 * The HTTP request being answered, for the steps of the pipeline that need what only the edge
 * knows: the client's address (the storefront's rate limit) and the answer, to add header fields
 * to (RateLimit), whichever interface writes it. Set by the server for each request (app.ts).
 */
export interface EdgeRequest {
  address: string;
  res: ServerResponse;
}
export const edgeRequest = new AsyncLocalStorage<EdgeRequest>();

export const REQUEST_ID_HEADER = 'x-request-id';
/** A client's own id is kept when it is short and plain (it goes into logs and answers as it is). */
const CLIENT_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The request's id, the client's own or a new one: on the answer, and on the request for every layer below. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
  req.headers[REQUEST_ID_HEADER] = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/**
 * The headers a subgraph needs to resolve the principal, read with `header` (from a Request or a
 * Node request); the host travels as x-forwarded-host. A header the request does not have is left out.
 */
export function forwardedHeadersOf(header: (name: string) => string | null | undefined): Record<string, string> {
  const forwarded: Record<string, string> = {};
  // The via header is set by the REST and MCP facades for the audit log; a client's own is dropped at the door (app.ts).
  for (const name of ['authorization', 'x-company-id', VIA_HEADER]) {
    const value = header(name);
    if (value != null) forwarded[name] = value;
  }
  // The Idempotency-Key claim of the request running here (kernel/idempotency.ts): from the kernel, never a client's header.
  const claim = currentClaim();
  if (claim) forwarded[IDEMPOTENCY_CLAIM_HEADER] = claim;
  const host = header('x-forwarded-host') ?? header('host');
  if (host != null) forwarded['x-forwarded-host'] = host;
  return forwarded;
}

/** `forwardedHeadersOf` a Request, whose URL gives the host when no header does. */
export function forwardedHeaders(request: Request): Record<string, string> {
  const forwarded = forwardedHeadersOf((name) => request.headers.get(name));
  forwarded['x-forwarded-host'] ??= new URL(request.url).host;
  return forwarded;
}

let lastHost: string | undefined;

/**
 * Whether the Host header can name this server in a URL (`localhost:4000`, `[::1]`, absent): the
 * layers below build the request's URL from it, and `a b` or `[::1` made that throw (a 500). The
 * last good one is remembered: clients send the same Host again and again.
 */
export function usableHost(host: string | undefined): boolean {
  if (host === undefined || host === lastHost) return true;
  try {
    new URL(`http://${host}/`);
  } catch {
    return false;
  }
  lastHost = host;
  return true;
}

/** JSON, as `application/json` or a `+json` type. Anything else is refused: form posts are how CSRF reaches an API. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/;

/**
 * Reads the body of a request to one of the interfaces: refuses one that is not JSON (415) or is
 * larger than `maxBytes` (413, from Content-Length before reading, or as soon as a streamed body
 * passes it). Returns true when it has answered the request itself.
 */
export async function readBody(req: IncomingMessage, res: ServerResponse, surface: Surface, maxBytes: number): Promise<boolean> {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return false;
  const declared = req.headers['content-length'];
  const streamed = req.headers['transfer-encoding'] !== undefined;
  if (!streamed && (declared === undefined || Number(declared) === 0)) return false;
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    return refuse(
      req,
      res,
      surface,
      'UNSUPPORTED_MEDIA_TYPE',
      mediaType
        ? `Content-Type ${mediaType.slice(0, 100)} is not supported; send JSON with Content-Type: application/json`
        : 'A body needs Content-Type: application/json',
    );
  }
  const tooLarge = () => refuse(req, res, surface, 'PAYLOAD_TOO_LARGE', `The body is larger than the limit of ${maxBytes} bytes`, { limitBytes: maxBytes });
  if (declared !== undefined && Number(declared) > maxBytes) return tooLarge();
  let body: Buffer | undefined;
  try {
    body = await readUpTo(req, maxBytes);
  } catch (error) {
    // The client went away in the middle of its body: nobody is left to answer.
    if (req.destroyed) return true;
    throw error;
  }
  if (!body) return tooLarge();
  Object.assign(req, { body, rawBody: body });
  return false;
}

/**
 * The whole body, or undefined as soon as it passes `maxBytes` (the rest left unread). Read with
 * events rather than an async iterator, whose promises per chunk showed in the router's profile.
 */
function readUpTo(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      done();
      req.pause();
      resolve(undefined);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * How much of a refused request's body is still read, and dropped, after the answer. A client
 * that is still sending when the server closes the connection (Node's fetch with 8 MB, curl) sees
 * a broken pipe (EPIPE, ECONNRESET) rather than the answer, so the rest of a body is read up to
 * this many bytes; a body declared longer is not read, and one that turns out longer is cut off.
 */
export const DISCARD_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * An answer in the interface's own error shape, naming the request id. A body left unread is read
 * and dropped (`discardBody`) or, when longer than DISCARD_LIMIT_BYTES, the connection closes.
 */
export function refuse(req: IncomingMessage, res: ServerResponse, surface: Surface, code: ErrorCode, message: string, details?: Record<string, unknown>): true {
  const requestId = req.headers[REQUEST_ID_HEADER] as string | undefined;
  const body =
    surface === 'rest'
      ? { success: false, error: { code, message, ...(details ? { details } : {}), requestId } }
      : surface === 'graphql'
        ? { errors: [{ message, extensions: { code, ...details, requestId } }] }
        : { jsonrpc: '2.0', error: { code: -32600, message, data: { code, ...details, requestId } }, id: null };
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (!req.readableEnded && !discardBody(req, res)) headers.connection = 'close';
  res.writeHead(ERROR_STATUS[code], headers);
  res.end(JSON.stringify(body));
  return true;
}

/**
 * Reads what is left of a request's body and drops it, so that the connection outlives the answer
 * and the client, still sending, reads it; false (nothing read) when the declared length passes
 * DISCARD_LIMIT_BYTES. A body that passes it while being read is cut off: the connection is
 * destroyed once the answer has gone out.
 */
function discardBody(req: IncomingMessage, res: ServerResponse): boolean {
  if (Number(req.headers['content-length'] ?? 0) > DISCARD_LIMIT_BYTES) return false;
  const socket = req.socket;
  let dropped = 0;
  const onData = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped <= DISCARD_LIMIT_BYTES) return;
    req.off('data', onData);
    req.pause();
    const cut = () => socket.destroy();
    if (res.writableFinished) cut();
    else res.once('finish', cut).once('close', cut);
  };
  req.on('data', onData);
  // The client going away while sending is no error of ours.
  req.on('error', () => {});
  req.resume();
  return true;
}

/**
 * GraphQL errors as REST and MCP errors are: each names the request's id (`extensions.requestId`),
 * and GraphQL's own coercion messages, which repeat the rejected value (up to the body limit),
 * say what is wrong in our words with the field (`l: must be an integer`); no internals (an
 * original error, a stack) are kept. Each error is copied
 * (its HTTP status, in `extensions.http`, kept).
 */
export function useErrorAnswers() {
  return {
    onResultProcess({ request, result, setResult }: { request: Request; result: unknown; setResult(result: unknown): void }) {
      const errors = (result as { errors?: readonly unknown[] } | undefined)?.errors;
      if (!Array.isArray(errors) || !errors.length) return;
      const requestId = request.headers.get(REQUEST_ID_HEADER);
      const failed = (result as { data?: unknown }).data == null;
      setResult({ ...(result as object), errors: errors.map((error) => answer(error, requestId, failed)) });
    },
  };
}

function answer(error: unknown, requestId: string | null, failed: boolean) {
  const given = error as { message?: string; extensions?: Record<string, unknown> } | null | undefined;
  const extensions: Record<string, unknown> = { ...given?.extensions, ...(requestId ? { requestId } : {}) };
  // Internals never reach a client: Yoga puts the parser's own error (which repeats the body) in
  // `originalError`, and a library may add a stack.
  for (const internal of ['originalError', 'stack', 'exception']) delete extensions[internal];
  // A request that is not a GraphQL request (a body that is not JSON) is 400 whatever the client
  // accepts; Yoga marks it as the spec's, which under application/json it would answer with 200.
  if (extensions.code === 'BAD_REQUEST' && extensions.http) extensions.http = { ...(extensions.http as object), spec: false };
  let message: string = given?.message ?? 'Error';
  if ((extensions.code === undefined || extensions.code === 'BAD_USER_INPUT') && isGraphqlCoercionMessage(message)) {
    const worded = coercionError(message);
    message = worded.message;
    Object.assign(extensions, { code: 'BAD_USER_INPUT', ...(worded.field ? { field: worded.field } : {}) });
    // A variable that does not coerce fails the whole operation: 400, as GraphQL over HTTP says.
    // The query planner passes variables on to the subgraph that takes them, whose error arrives
    // here without the status its own server would answer.
    if (failed) extensions.http = { ...(extensions.http as object), status: 400 };
  }
  if (!(error instanceof GraphQLError)) return { ...given, message, extensions };
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions,
  });
}
