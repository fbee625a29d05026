/**
 * The legacy /connect/v1 routes of the contract's mapping table, served until their sunset: each
 * runs its v6 successor (the REST facade, in process) and answers in the legacy shape (no
 * envelope: a list is a JSON array with X-Total-Count, one record is the record, an error is
 * `{ error }`), with or without a trailing slash. Three adapters the contract asks for, merchant
 * credential only: a member token minted from a member id, an exact member search, and reward
 * transactions (loyalty ADJUST entries through the adjust_points tool).
 *
 * Every answer carries Deprecation (RFC 9745), Sunset (RFC 8594) and Link headers; after the sunset
 * the routes answer 410 GONE naming their successor. Calls are counted per route and company
 * (kernel/legacy-usage.ts; get_legacy_usage reads them).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../../subgraphs/kernel/config.ts';
import type { Database } from '../../subgraphs/kernel/database.ts';
import { recordLegacyCall } from '../../subgraphs/kernel/legacy-usage.ts';
import { headerReader, resolvePrincipal } from '../../subgraphs/kernel/principal.ts';
import { API_KEY_PREFIX } from '../../subgraphs/kernel/tokens.ts';
import { VIA_HEADER } from '../../subgraphs/kernel/audit.ts';
import { toErrorBody, type GraphQLErrorLike } from '../errors.ts';
import { accessesOf, credentialRefusal } from './credentials.ts';

type Shape = 'list' | 'one' | 'member';
type Answer = { status: number; body: unknown; headers?: Record<string, string> };
/** An error as the v6 envelope and the tools carry it (facades/errors.ts `ErrorBody`). */
type EnvelopeError = { code: string; message: string; details?: Record<string, unknown> };

export interface LegacyDeps {
  config: Config;
  db: Database;
  now: () => Date;
  /** The REST facade, called in process. */
  rest: (request: Request) => Promise<Response>;
  /** A GraphQL operation through the gateway, with the caller's headers. */
  graphql: (request: Request) => Promise<Response>;
  /** A merchant tool (facades/mcp/server.ts invoke). */
  invoke: (req: IncomingMessage, name: string, args: Record<string, unknown>) => Promise<{ status: number; body: unknown }>;
}

interface LegacyRoute {
  method: 'GET' | 'POST';
  /** As the legacy API wrote it, with `{param}` segments and the trailing slash. */
  path: string;
  /** The v6 route that replaces it (`{param}` filled from the legacy path); none for two adapters. */
  successor?: string;
  shape?: Shape;
  adapter?: (call: Call) => Promise<Answer>;
  /**
   * The root fields an adapter may run: when each needs a credential (kernel/access.ts), a caller
   * none of them admits is refused before the adapter reads anything of the request.
   */
  runs?: string[];
}

/** One legacy call: the request, its path parameters and query, and its name in the audit log (`rest POST /connect/v1/…`). */
interface Call {
  req: IncomingMessage;
  params: Record<string, string>;
  query: URLSearchParams;
  deps: LegacyDeps;
  via: string;
}

const CP = '/v6/customer-portal';
const ROUTES: LegacyRoute[] = [
  { method: 'GET', path: '/connect/v1/pages/', successor: `${CP}/cms/pages`, shape: 'list' },
  { method: 'GET', path: '/connect/v1/pages/{slug}/', successor: `${CP}/cms/pages/{slug}`, shape: 'one' },
  { method: 'GET', path: '/connect/v1/blog/posts/', successor: `${CP}/cms/posts`, shape: 'list' },
  { method: 'GET', path: '/connect/v1/blog/posts/{slug}/', successor: `${CP}/cms/posts/{slug}`, shape: 'one' },
  { method: 'GET', path: '/connect/v1/blog/categories/', successor: `${CP}/cms/categories`, shape: 'list' },
  { method: 'POST', path: '/connect/v1/members/register/', successor: `${CP}/auth/register`, shape: 'member' },
  { method: 'GET', path: '/connect/v1/members/search/', adapter: memberSearch, runs: ['Query.findCustomers'] },
  {
    method: 'POST',
    path: '/connect/v1/members/reward-transactions/',
    successor: '/v6/merchant/loyalty/customers/{customerId}/adjustments',
    adapter: rewardTransaction,
    runs: ['Mutation.adjustPoints'],
  },
  {
    method: 'POST',
    path: '/connect/v1/members/{member_uuid}/token/',
    successor: `${CP}/auth/refresh`,
    adapter: memberToken,
    runs: ['Mutation.issueCustomerToken', 'Query.validateCustomerToken', 'Mutation.refreshCustomerToken'],
  },
  { method: 'GET', path: '/connect/v1/events/', successor: `${CP}/events`, shape: 'list' },
  { method: 'GET', path: '/connect/v1/events/{slug}/', successor: `${CP}/events/{slug}`, shape: 'one' },
  { method: 'GET', path: '/connect/v1/booking-records/', successor: `${CP}/bookings`, shape: 'list' },
  { method: 'GET', path: '/connect/v1/booking-records/{booking_uuid}/', successor: `${CP}/bookings/{booking_uuid}`, shape: 'one' },
];

const compiled = ROUTES.map((route) => ({
  route,
  params: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
  // The trailing slash is optional; a parameter is one segment.
  pattern: new RegExp(`^${route.path.replace(/\/$/, '').replace(/\{\w+\}/g, '([^/]+)')}/?$`),
}));

/** The routes as the contract's table names them (for tests and docs). */
export const LEGACY_ROUTES = ROUTES.map((r) => ({ method: r.method, path: r.path, successor: r.successor }));

const error = (status: number, code: string, message: string, details?: Record<string, unknown>): Answer => ({
  status,
  body: { error: { code, message, ...(details ? { details } : {}) } },
});

/** Answers a /connect/v1 request (true), or leaves it to the next handler. */
export function createLegacyRoutes(deps: LegacyDeps) {
  const { deprecatedAt, sunsetAt } = deps.config.legacy;
  const docs = `${deps.config.publicUrl}/docs/legacy.md`;
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (!path.startsWith('/connect/v1/')) return false;
    const url = new URL(req.url ?? path, 'http://legacy.internal');
    const matching = compiled.filter((c) => c.pattern.test(path));
    const found = matching.find((c) => c.route.method === req.method);
    const headers: Record<string, string> = {
      deprecation: `@${Math.floor(deprecatedAt.getTime() / 1000)}`,
      sunset: sunsetAt.toUTCString(),
    };
    const links = [`<${docs}>; rel="deprecation"; type="text/markdown"`];
    let answer: Answer;
    if (!found) {
      answer = matching.length
        ? {
            ...error(405, 'METHOD_NOT_ALLOWED', `${req.method} is not supported on ${path}; use ${matching.map((c) => c.route.method).join(', ')}`),
            headers: { allow: matching.map((c) => c.route.method).join(', ') },
          }
        : error(
            404,
            'NOT_FOUND',
            `No legacy route ${req.method} ${path}; the v6 routes are listed at ${deps.config.publicUrl}/openapi/connect-v6.openapi.json`,
          );
    } else {
      const match = found.pattern.exec(path)!;
      const params = Object.fromEntries(found.params.map((name, i) => [name, safeDecode(match[i + 1])]));
      const successor = found.route.successor?.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
        name in params ? encodeURIComponent(params[name]) : placeholder,
      );
      if (successor) links.push(`<${deps.config.publicUrl}${successor}>; rel="successor-version"`);
      // Counted first: the token route may end the session that names the company.
      await count(req, found.route, deps);
      if (deps.now() >= sunsetAt) {
        answer = error(
          410,
          'GONE',
          `${found.route.method} ${found.route.path} was retired on ${sunsetAt.toISOString()}${successor ? `; use ${found.route.method} ${successor}` : ''}`,
          {
            sunsetAt: sunsetAt.toISOString(),
            ...(successor ? { successor: `${found.route.method} ${successor}` } : {}),
          },
        );
      } else {
        const call = { req, params, query: url.searchParams, deps, via: `rest ${found.route.method} ${found.route.path}` };
        // A route run through its v6 successor is refused there, as the successor is.
        const refused =
          found.route.adapter && (await credentialRefusal(deps.db, deps.config.jwtSecret, headerReader(req.headers), accessesOf(found.route.runs ?? [])));
        if (refused) answer = error(refused.status, refused.body.code, refused.body.message, refused.body.details);
        else answer = found.route.adapter ? await found.route.adapter(call) : await proxy(call, successor!, url.search, found.route.shape!);
      }
    }
    const requestId = req.headers['x-request-id'];
    const body =
      answer.status >= 400 && typeof requestId === 'string' ? { error: { ...(answer.body as { error?: EnvelopeError }).error, requestId } } : answer.body;
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', ...headers, link: links.join(', '), ...answer.headers });
    res.end(JSON.stringify(body));
    return true;
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The caller's headers that the v6 routes read. */
function forwarded(req: IncomingMessage, via: string): Headers {
  const headers = new Headers();
  for (const name of ['authorization', 'x-company-id', 'x-forwarded-host', 'host', 'x-request-id', 'idempotency-key']) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  headers.set(VIA_HEADER, via);
  return headers;
}

/** The v6 route's answer in the legacy shape. */
async function proxy({ req, deps, via }: Call, successor: string, search: string, shape: Shape, withBody = true): Promise<Answer> {
  const headers = forwarded(req, via);
  const raw = withBody ? (req as { body?: Buffer }).body : undefined;
  if (raw?.length) headers.set('content-type', 'application/json');
  const response = await deps.rest(
    new Request(`http://legacy.internal${successor}${search}`, { method: req.method, headers, body: raw?.length ? new Uint8Array(raw) : undefined }),
  );
  const envelope = (await response.json()) as { success: boolean; data?: unknown; error?: unknown };
  if (!envelope.success) return { status: response.status, body: { error: envelope.error } };
  const data = envelope.data;
  if (shape === 'list') {
    const list = data as { items: unknown[]; pagination?: { total?: number } };
    return { status: response.status, body: list.items, headers: { 'x-total-count': String(list.pagination?.total ?? list.items.length) } };
  }
  if (shape === 'member') {
    const signup = data as { member: Record<string, unknown>; token?: string | null };
    return { status: response.status, body: { ...signup.member, token: signup.token ?? null } };
  }
  return { status: response.status, body: data };
}

/** A GraphQL operation of the adapters, answered as a legacy body. */
async function run({ req, deps, via }: Call, query: string, variables: Record<string, unknown>): Promise<Answer> {
  const headers = forwarded(req, via);
  headers.set('content-type', 'application/json');
  headers.delete('idempotency-key');
  const response = await deps.graphql(new Request('http://legacy.internal/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) }));
  const result = (await response.json()) as { data?: Record<string, unknown> | null; errors?: GraphQLErrorLike[] };
  const failure = result.errors?.[0];
  if (failure) {
    const { status, body } = toErrorBody(failure);
    return error(status, body.code, body.message, body.details);
  }
  return { status: 200, body: Object.values(result.data ?? {})[0] };
}

const isMerchantKey = (req: IncomingMessage) => new RegExp(`^Bearer\\s+${API_KEY_PREFIX}`, 'i').test(req.headers.authorization ?? '');

/** GET /connect/v1/members/search/?email=…|phone=…: the company's members with exactly that address (merchant only). */
function memberSearch(call: Call): Promise<Answer> {
  const { query } = call;
  const email = query.get('email');
  const phone = query.get('phone');
  if (!email && !phone) return Promise.resolve(error(400, 'BAD_USER_INPUT', 'email: give email or phone to search by (exact match)', { field: 'email' }));
  return run(call, 'query ($email: String, $phone: String) { findCustomers(email: $email, phone: $phone) { id name lastName email phone createdAt } }', {
    email,
    phone,
  });
}

/**
 * POST /connect/v1/members/{member_uuid}/token/: with a merchant API key, a token for that member
 * (the adapter); with that member's own token, `{ "action": "validate" }` checks it and anything
 * else refreshes it, as the v6 routes do.
 */
async function memberToken(call: Call): Promise<Answer> {
  const { req, params } = call;
  const memberId = params.member_uuid;
  if (isMerchantKey(req)) {
    return run(call, 'mutation ($id: ID!) { issueCustomerToken(customerId: $id) { token expiresAt customer { id name lastName email phone } } }', {
      id: memberId,
    });
  }
  const action = bodyOf(req).action;
  if (action !== undefined && action !== 'validate' && action !== 'refresh')
    return error(400, 'BAD_USER_INPUT', 'action: must be validate or refresh', { field: 'action' });
  // The legacy body (`action`) is this adapter's; the v6 token routes take none.
  const checked = await proxy(call, `${CP}/auth/validate-token`, '', 'one', false);
  if (checked.status !== 200) return checked;
  const customerId = (checked.body as { customer?: { id?: string } }).customer?.id;
  if (customerId !== memberId) return error(403, 'FORBIDDEN', 'member_uuid: this token belongs to another member', { field: 'member_uuid' });
  if (action === 'validate') return checked;
  return proxy(call, `${CP}/auth/refresh`, '', 'one', false);
}

/** POST /connect/v1/members/reward-transactions/ { member_uuid, points, reason }: a loyalty ADJUST entry (merchant only). */
async function rewardTransaction({ req, deps }: Call): Promise<Answer> {
  const body = bodyOf(req);
  if (body === INVALID) return error(400, 'BAD_USER_INPUT', 'body: must be a JSON object with member_uuid, points and reason', { field: 'body' });
  const customerId = body.member_uuid ?? body.memberId;
  if (typeof customerId !== 'string' || !customerId) return error(400, 'BAD_USER_INPUT', 'member_uuid: is required', { field: 'member_uuid' });
  const key = req.headers['idempotency-key'];
  const answer = await deps.invoke(req, 'adjust_points', {
    customerId,
    points: body.points,
    reason: body.reason ?? 'Legacy reward transaction',
    ...(typeof key === 'string' ? { idempotencyKey: key } : {}),
  });
  const envelope = answer.body as { success?: boolean; data?: unknown; error?: EnvelopeError };
  if (envelope?.success === false) {
    const e = envelope.error;
    if (e?.details?.field === 'customerId')
      return error(answer.status, e.code, String(e.message).replace('customerId', 'member_uuid'), { ...e.details, field: 'member_uuid' });
    return { status: answer.status, body: { error: e } };
  }
  return { status: 201, body: envelope.data };
}

const INVALID = Symbol('invalid body') as unknown as Record<string, unknown>;

/** The request's JSON object body (read by router/edge.ts readBody), {} when none, INVALID when not an object. */
function bodyOf(req: IncomingMessage): Record<string, unknown> {
  const raw = (req as { body?: Buffer }).body;
  if (!raw?.length) return {};
  try {
    const parsed = JSON.parse(raw.toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : INVALID;
  } catch {
    return INVALID;
  }
}

/** One call of a route by the caller's company, when the caller names one. */
async function count(req: IncomingMessage, route: LegacyRoute, deps: LegacyDeps) {
  try {
    const principal = await resolvePrincipal(deps.db, deps.config.jwtSecret, headerReader(req.headers));
    if (principal.companyId) await recordLegacyCall(deps.db, principal.companyId, `${route.method} ${route.path}`, deps.now());
  } catch {
    // No company to count it for (a bad credential or tenant): the answer already said so.
  }
}
