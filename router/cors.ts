import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../subgraphs/kernel/config.ts';
import type { Database } from '../subgraphs/kernel/database.ts';
import { queryAcrossTenants } from '../subgraphs/kernel/query.ts';
import { surfaceOf, type Surface } from './edge.ts';

/**
 * CORS for the API paths (/v6/*, /graphql, /mcp), so a storefront on its own domain can call the
 * API from the browser. Nothing else (docs, health, /dev/outbox) is shared cross-origin.
 *
 * An origin is allowed when it is
 * - listed in `CORS_ORIGINS` (exact, `https://*.example.com` for subdomains, or `*` for any),
 * - http(s) on a host registered as a storefront domain of any company (members.storefront_domain;
 *   any port; cached 30 s, a miss 5 s, so a new domain works within seconds),
 * - outside production, http(s) on localhost, 127.0.0.1, [::1] or *.localhost (local storefront
 *   development; in production only when listed, even though the demo company's storefront
 *   domain is `localhost`), or
 * - the API's own origin (same-origin browsers send Origin on POST too, e.g. GraphiQL).
 * The opaque origin `null` (sandboxed frames, file:) and anything not http(s) never is.
 *
 * An allowed origin is echoed in Access-Control-Allow-Origin with `Vary: Origin`. No
 * Access-Control-Allow-Credentials: the API takes its credential from the Authorization header,
 * never a cookie, so browsers need none, and `*` in CORS_ORIGINS stays harmless.
 *
 * A preflight (OPTIONS with Origin and Access-Control-Request-Method) is answered here: 204 with the
 * methods, the request headers the API reads and a Max-Age for an allowed origin; 403 with no
 * CORS headers for another one (the browser then refuses the request, and the status says why to
 * whoever looks at the network panel). An actual request from a disallowed origin still runs
 * without CORS headers, as CORS prescribes (the browser withholds the answer; a request that
 * needs a preflight never gets there), except on /mcp: the MCP transport requires refusing a
 * present, invalid Origin with 403 (DNS rebinding).
 *
 * The gateway's own CORS is off (gateway.ts): the decision is made here for every interface.
 */
export type CorsHandler = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const METHODS: Record<Family, string> = {
  rest: 'GET, POST, PUT, PATCH, DELETE',
  graphql: 'GET, POST',
  mcp: 'GET, POST, DELETE',
};
const HEADERS = ['Authorization', 'Content-Type', 'X-Company-Id', 'Idempotency-Key', 'X-Request-Id', 'Accept', 'Accept-Language'];
const ALLOW_HEADERS: Record<Family, string> = {
  rest: HEADERS.join(', '),
  graphql: HEADERS.join(', '),
  mcp: [...HEADERS, 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'].join(', '),
};
/** Response headers a page may read besides the CORS-safelisted ones. */
const EXPOSE_HEADERS: Record<Family, string> = {
  rest: 'X-Request-Id, Retry-After, RateLimit, RateLimit-Policy, Idempotent-Replayed',
  graphql: 'X-Request-Id, Retry-After, RateLimit, RateLimit-Policy, Idempotent-Replayed',
  mcp: 'X-Request-Id, Retry-After, RateLimit, RateLimit-Policy, WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version',
};
/** Seconds a browser may reuse a preflight (Chromium caps it at 7200). */
const MAX_AGE = 600;

const HIT_TTL_MS = 30_000;
const MISS_TTL_MS = 5_000;
const CACHE_LIMIT = 5_000;

type Family = Surface;

interface Origin {
  scheme: 'http' | 'https';
  hostname: string;
  /** `scheme://host[:port]`, lower case, without a default port: how CORS_ORIGINS is normalised. */
  normalised: string;
  /** `host[:port]` as a Host header names it. */
  host: string;
}

/** A serialised http(s) origin; anything else (null, file:, paths, lists) is undefined. */
export function parseOrigin(value: string): Origin | undefined {
  const match = /^(https?):\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/.exec(value.trim().toLowerCase());
  if (!match) return undefined;
  const scheme = match[1] as 'http' | 'https';
  const port = match[3] === undefined ? undefined : Number(match[3]);
  if (port !== undefined && port > 65535) return undefined;
  const hostname = match[2];
  const host = `${hostname}${port !== undefined && port !== (scheme === 'https' ? 443 : 80) ? `:${port}` : ''}`;
  return { scheme, hostname, host, normalised: `${scheme}://${host}` };
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const isLocal = (hostname: string) => LOCAL_HOSTS.has(hostname) || hostname.endsWith('.localhost');

export function createCors(config: Config, db: Database): CorsHandler {
  const any = config.corsOrigins.includes('*');
  const exact = new Set(config.corsOrigins.filter((o) => !o.includes('*')));
  const wildcards = config.corsOrigins
    .filter((o) => o.includes('://*.'))
    .map((o) => {
      const [scheme, rest] = o.split('://*.');
      return { scheme, suffix: `.${rest}` };
    });
  const own = parseOrigin(new URL(config.publicUrl).origin)?.normalised;

  const storefronts = new Map<string, { expires: number; allowed: Promise<boolean> }>();
  const isStorefront = (hostname: string): Promise<boolean> => {
    // Storefront domains are host names; an address or a bracketed IPv6 literal never is one.
    if (hostname.startsWith('[') || /^[\d.]+$/.test(hostname)) return Promise.resolve(false);
    const hit = storefronts.get(hostname);
    if (hit && hit.expires > Date.now()) return hit.allowed;
    const entry = { expires: Date.now() + HIT_TTL_MS, allowed: Promise.resolve(false) };
    // Any company's domain: the origin is checked before any company is known.
    entry.allowed = queryAcrossTenants(db.orm.em)
      .query.selectFrom('members.storefront_domain')
      .select('host')
      .where('host', '=', hostname)
      .limit(1)
      .execute()
      .then(
        (rows) => {
          if (!rows.length) entry.expires = Date.now() + MISS_TTL_MS;
          return rows.length > 0;
        },
        (error) => {
          // Not kept: the origin is refused this time and looked up again next time.
          if (storefronts.get(hostname) === entry) storefronts.delete(hostname);
          console.error('[cors] storefront domain lookup failed', error);
          return false;
        },
      );
    storefronts.delete(hostname);
    storefronts.set(hostname, entry);
    if (storefronts.size > CACHE_LIMIT) storefronts.delete(storefronts.keys().next().value!);
    return entry.allowed;
  };

  const allowed = async (origin: Origin, req: IncomingMessage): Promise<boolean> => {
    if (any || exact.has(origin.normalised)) return true;
    if (wildcards.some((w) => w.scheme === origin.scheme && origin.normalised.slice(origin.scheme.length + 3).endsWith(w.suffix))) return true;
    if (origin.normalised === own || origin.host === req.headers.host?.toLowerCase()) return true;
    // Local names only outside production, even as a storefront domain (the demo company's is `localhost`).
    if (isLocal(origin.hostname)) return !config.production;
    return isStorefront(origin.hostname);
  };

  return async (req, res) => {
    const kind = surfaceOf((req.url ?? '/').split('?')[0]);
    if (!kind) return false;
    res.setHeader('Vary', 'Origin');
    const header = req.headers.origin;
    if (header === undefined) return false;
    const origin = parseOrigin(header);
    const ok = origin !== undefined && (await allowed(origin, req));
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;

    if (!ok) {
      if (preflight || kind === 'mcp') {
        const message = 'This origin may not call the API; a storefront domain of the company, or one the platform lists (CORS_ORIGINS), may';
        const body = JSON.stringify(
          kind === 'mcp' ? { jsonrpc: '2.0', error: { code: -32000, message }, id: null } : { success: false, error: { code: 'FORBIDDEN', message } },
        );
        res.writeHead(403, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return true;
      }
      return false;
    }

    res.setHeader('Access-Control-Allow-Origin', header);
    if (preflight) {
      res.setHeader('Access-Control-Allow-Methods', METHODS[kind]);
      res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS[kind]);
      res.setHeader('Access-Control-Max-Age', String(MAX_AGE));
      // Safari waits for a body on a 204 without a length.
      res.writeHead(204, { 'content-length': '0' });
      res.end();
      return true;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS[kind]);
    return false;
  };
}
