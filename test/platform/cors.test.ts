import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp, type App } from '../../router/app.ts';
import { loadConfig } from '../../subgraphs/kernel/config.ts';
import { createPglite } from '../../subgraphs/kernel/database.ts';
import { signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';

const CHROMIUM = '/usr/bin/chromium';
/** Made-up host names the browser resolves to this machine (--host-resolver-rules). */
const TEST_DOMAIN = 'cors.example.test';
const run = `${process.pid}-${Date.now()}`;
const storefrontHost = `shop-${run}.${TEST_DOMAIN}`;
const strangerHost = `evil-${run}.${TEST_DOMAIN}`;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** A request as a browser sends it cross-origin: an Origin header, optionally a preflight. */
async function call(
  base: string,
  path: string,
  init: { method?: string; origin?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.origin) headers.origin = init.origin;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers,
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, headers: res.headers, body };
}

const preflight = (base: string, path: string, origin: string, method = 'POST', requestHeaders = 'content-type,x-company-id') =>
  call(base, path, { method: 'OPTIONS', origin, headers: { 'access-control-request-method': method, 'access-control-request-headers': requestHeaders } });

const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'access-control-max-age',
];
const corsHeadersOf = (res: Answer) => CORS_HEADERS.filter((h) => res.headers.has(h));

const MCP_INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cors-test', version: '1' } },
};
const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };

/** A company with a storefront domain, registered the way a merchant does it (MCP tool). */
let company: { companyId: string; apiKey: string };
let api: string;

beforeAll(async () => {
  api = (await testServer()).url;
  company = await signupCompany('Cors Studio');
  const merchant = await mcpClient(company.apiKey);
  await callTool(merchant, 'add_storefront_domain', { domain: storefrontHost });
  await merchant.close();
});

describe('CORS_ORIGINS', () => {
  it('is parsed into normalised origins; null, paths and other schemes are refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cors-config-'));
    const env = { DATA_DIR: dir, JWT_SECRET: 'x'.repeat(32) };
    expect(loadConfig(env).corsOrigins).toEqual([]);
    expect(
      loadConfig({
        ...env,
        CORS_ORIGINS: ' https://Shop.Example.com/ , http://localhost:5173,https://a.example.com:443,,https://*.partner.example, * ,https://shop.example.com',
      }).corsOrigins,
    ).toEqual(['https://shop.example.com', 'http://localhost:5173', 'https://a.example.com', 'https://*.partner.example', '*']);
    for (const bad of [
      'null',
      'https://shop.example.com/path',
      'ftp://shop.example.com',
      'shop.example.com',
      'https://shop.example.com:99999',
      'https://shop.example.com?x=1',
    ]) {
      expect(() => loadConfig({ ...env, CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    }
  });
});

describe('CORS on the API paths (development: storefront domains and localhost)', () => {
  const origin = () => `https://${storefrontHost}`;

  it('answers a preflight from a storefront domain on /v6, /graphql and /mcp', async () => {
    for (const path of ['/v6/customer-portal/auth/otp', '/graphql', '/mcp']) {
      const res = await preflight(api, path, origin(), 'POST', 'content-type,x-company-id,authorization,idempotency-key');
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), path).toBe(origin());
      expect(res.headers.get('vary'), path).toMatch(/\bOrigin\b/);
      expect(res.headers.get('access-control-allow-methods'), path).toContain('POST');
      const allowed = res.headers
        .get('access-control-allow-headers')!
        .toLowerCase()
        .split(/\s*,\s*/);
      expect(allowed, path).toEqual(expect.arrayContaining(['x-company-id', 'authorization', 'idempotency-key', 'content-type']));
      expect(Number(res.headers.get('access-control-max-age')), path).toBeGreaterThan(0);
      // The API takes its credential from Authorization, never a cookie.
      expect(res.headers.has('access-control-allow-credentials'), path).toBe(false);
    }
    const mcp = await preflight(api, '/mcp', origin(), 'POST', 'content-type,mcp-protocol-version');
    expect(mcp.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('mcp-protocol-version');
    expect(mcp.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('mcp-session-id');
    // Any port of the storefront host; the REST methods of the merchant routes.
    const rest = await preflight(api, '/v6/merchant/services', `http://${storefrontHost}:8080`, 'DELETE');
    expect(rest.status).toBe(204);
    expect(rest.headers.get('access-control-allow-methods')).toContain('DELETE');
  });

  it('adds the CORS headers to actual answers for an allowed origin, whatever their status', async () => {
    const headers = { 'x-company-id': company.companyId };
    const graphql = await call(api, '/graphql', { origin: origin(), headers, body: { query: '{ loginChannel { channel companyId } }' } });
    expect(graphql.status).toBe(200);
    expect(graphql.body.data.loginChannel.companyId).toBe(company.companyId);
    expect(graphql.headers.get('access-control-allow-origin')).toBe(origin());
    expect(graphql.headers.get('vary')).toMatch(/\bOrigin\b/);
    // The gateway's own CORS (which would allow any origin, with credentials) does not answer too.
    expect(graphql.headers.has('access-control-allow-credentials')).toBe(false);
    expect(graphql.headers.get('access-control-expose-headers')!.toLowerCase()).toContain('x-request-id');

    const rest = await call(api, '/v6/customer-portal/auth/login-channel', { origin: origin(), headers });
    expect(rest.status).toBe(200);
    expect(rest.headers.get('access-control-allow-origin')).toBe(origin());
    expect(rest.headers.get('access-control-expose-headers')!.toLowerCase()).toContain('retry-after');
    const missing = await call(api, '/v6/customer-portal/nothing', { origin: origin(), headers });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(origin());

    const mcp = await call(api, '/mcp', { origin: origin(), headers: MCP_ACCEPT, body: MCP_INITIALIZE });
    expect(mcp.status).toBe(200);
    expect(mcp.body.result.serverInfo.name).toBe('service-platform');
    expect(mcp.headers.get('access-control-allow-origin')).toBe(origin());
    const unauthorised = await call(api, '/mcp', { origin: origin(), headers: { ...MCP_ACCEPT, authorization: 'Bearer nonsense' }, body: MCP_INITIALIZE });
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers.get('access-control-allow-origin')).toBe(origin());
    expect(unauthorised.headers.get('access-control-expose-headers')!.toLowerCase()).toContain('www-authenticate');
  });

  it('gives a disallowed origin no CORS headers: a preflight is 403, /mcp refuses it outright', async () => {
    const stranger = `https://${strangerHost}`;
    for (const path of ['/v6/customer-portal/auth/otp', '/graphql', '/mcp']) {
      const res = await preflight(api, path, stranger);
      expect(res.status, path).toBe(403);
      expect(corsHeadersOf(res), path).toEqual([]);
      expect(res.headers.get('vary'), path).toMatch(/\bOrigin\b/);
    }
    // An actual request runs as without CORS (the browser withholds the answer from the page).
    const graphql = await call(api, '/graphql', {
      origin: stranger,
      headers: { 'x-company-id': company.companyId },
      body: { query: '{ loginChannel { channel } }' },
    });
    expect(graphql.status).toBe(200);
    expect(corsHeadersOf(graphql)).toEqual([]);
    const rest = await call(api, '/v6/customer-portal/auth/login-channel', { origin: stranger, headers: { 'x-company-id': company.companyId } });
    expect(rest.status).toBe(200);
    expect(corsHeadersOf(rest)).toEqual([]);
    // MCP: a present, invalid Origin is refused (DNS rebinding), as a JSON-RPC error.
    const mcp = await call(api, '/mcp', { origin: stranger, headers: MCP_ACCEPT, body: MCP_INITIALIZE });
    expect(mcp.status).toBe(403);
    expect(mcp.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    expect(corsHeadersOf(mcp)).toEqual([]);
    // Without an Origin (servers, agents, curl) nothing changes.
    expect((await call(api, '/mcp', { headers: MCP_ACCEPT, body: MCP_INITIALIZE })).status).toBe(200);
  });

  it('never allows the opaque origin null, other schemes or a storefront host under another name', async () => {
    for (const origin of [
      'null',
      'file://',
      `chrome-extension://${storefrontHost}`,
      `https://${storefrontHost}.evil.test`,
      `https://x${storefrontHost}`,
      `https://${storefrontHost}/path`,
    ]) {
      const res = await preflight(api, '/graphql', origin);
      expect(res.status, origin).toBe(403);
      expect(corsHeadersOf(res), origin).toEqual([]);
    }
  });

  it('allows localhost origins and its own origin outside production', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'https://shop.localhost', 'http://[::1]:8080', api]) {
      const res = await preflight(api, '/v6/customer-portal/auth/otp', origin);
      expect(res.status, origin).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
    }
  });

  it('shares only the API paths', async () => {
    for (const path of ['/healthz', '/openapi/connect-v6.openapi.yaml', '/dev/outbox?to=x@example.test']) {
      const res = await call(api, path, { origin: `https://${storefrontHost}` });
      expect(res.status, path).toBe(200);
      expect(corsHeadersOf(res), path).toEqual([]);
    }
  });
});

/** A second router: production, CORS_ORIGINS set. Its own PGlite (from the run's snapshot) or the run's PostgreSQL database. */
async function productionApp(corsOrigins: string): Promise<{ app: App; url: string }> {
  const databaseUrl = inject('databaseUrl');
  const snapshot = inject('snapshotFile');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'cors-production-')),
    // Production refuses a secret written in the repository (subgraphs/kernel/config.ts).
    JWT_SECRET: randomBytes(48).toString('base64url'),
    PUBLIC_URL: 'https://api.example.com',
    CORS_ORIGINS: corsOrigins,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const pglite = snapshot ? await createPglite(undefined, new Blob([readFileSync(snapshot)])) : undefined;
  const app = await createApp(config, { pglite });
  await new Promise<void>((r) => app.server.listen(0, '127.0.0.1', r));
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** The storefront page: any path answers a small HTML page, so its origin is the one it is reached by. */
async function pageServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>Storefront</title></head><body>Storefront</body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('CORS in production with CORS_ORIGINS', () => {
  let production: { app: App; url: string };
  let page: { server: Server; port: number };

  beforeAll(async () => {
    page = await pageServer();
    production = await productionApp(`https://app.example.com, https://*.partner.example, http://127.0.0.1:${page.port}`);
  });
  afterAll(async () => {
    await production?.app.close();
    await new Promise((r) => page?.server.close(r));
  });

  it('allows exactly the configured origins, its own, and no localhost', async () => {
    const allowed = [
      'https://app.example.com',
      'https://a.partner.example',
      'https://b.c.partner.example',
      `http://127.0.0.1:${page.port}`,
      'https://api.example.com',
    ];
    for (const origin of allowed) {
      const res = await preflight(production.url, '/graphql', origin);
      expect(res.status, origin).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
    }
    const refused = [
      'http://app.example.com',
      'https://app.example.com:8443',
      'https://partner.example',
      'https://evilpartner.example',
      'http://localhost:5173',
      `http://localhost:${page.port}`,
      'http://127.0.0.1:1',
      `https://${storefrontHost}.invalid`,
    ];
    for (const origin of refused) {
      const res = await preflight(production.url, '/graphql', origin);
      expect(res.status, origin).toBe(403);
      expect(corsHeadersOf(res), origin).toEqual([]);
    }
    const answer = await call(production.url, '/graphql', { origin: 'https://app.example.com', body: { query: '{ __typename }' } });
    expect(answer.body.data).toEqual({ __typename: 'Query' });
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const mcp = await call(production.url, '/mcp', { origin: 'https://a.partner.example', headers: MCP_ACCEPT, body: MCP_INITIALIZE });
    expect(mcp.status).toBe(200);
    expect(mcp.headers.get('access-control-allow-origin')).toBe('https://a.partner.example');
  });

  describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('in a real browser (headless Chromium)', () => {
    let browser: import('playwright-core').Browser;
    /** Every request the API servers saw: method, path and Origin. */
    const seen: { method?: string; path?: string; origin?: string }[] = [];
    const record = (req: IncomingMessage) => seen.push({ method: req.method, path: req.url, origin: req.headers.origin });

    beforeAll(async () => {
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-proxy-server',
          // The storefront and the stranger are host names of their own, served by the page server.
          `--host-resolver-rules=MAP *.${TEST_DOMAIN} 127.0.0.1`,
        ],
      });
      (await testServer()).app.server.prependListener('request', record);
      production.app.server.prependListener('request', record);
    });
    afterAll(async () => {
      (await testServer()).app.server.off('request', record);
      production?.app.server.off('request', record);
      await browser?.close();
    });

    /** Opens the page at `pageUrl` and runs the storefront's calls from it. */
    const fromPage = async (pageUrl: string, apiUrl: string, companyId: string | null) => {
      const context = await browser.newContext();
      try {
        const tab = await context.newPage();
        await tab.goto(pageUrl);
        return await tab.evaluate(
          async ({ apiUrl, companyId }) => {
            const attempt = async (path: string, init: RequestInit) => {
              try {
                const res = await fetch(`${apiUrl}${path}`, init);
                return { status: res.status, body: await res.json(), requestId: res.headers.get('x-request-id') };
              } catch (error) {
                return { error: String(error) };
              }
            };
            const tenant: Record<string, string> = companyId ? { 'X-Company-Id': companyId } : {};
            return {
              graphql: await attempt('/graphql', {
                method: 'POST',
                headers: { 'Content-Type': 'application/json', ...tenant },
                body: JSON.stringify({ query: '{ __typename }' }),
              }),
              rest: await attempt('/v6/customer-portal/auth/otp', {
                method: 'POST',
                headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `cors-${Math.random()}`, ...tenant },
                body: JSON.stringify({ email: `browser-${Date.now()}@example.test` }),
              }),
              mcp: await attempt('/mcp', {
                method: 'POST',
                headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
                body: JSON.stringify({
                  jsonrpc: '2.0',
                  id: 1,
                  method: 'initialize',
                  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'storefront', version: '1' } },
                }),
              }),
            };
          },
          { apiUrl, companyId },
        );
      } finally {
        await context.close();
      }
    };

    it('lets a storefront on its own domain call REST, GraphQL and MCP', async () => {
      const results = await fromPage(`http://${storefrontHost}:${page.port}/`, api, company.companyId);
      expect(results.graphql).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
      expect(results.graphql).toHaveProperty('requestId', expect.any(String));
      expect(results.rest).toMatchObject({ status: 200, body: { success: true } });
      expect(results.mcp).toMatchObject({ status: 200, body: { result: { serverInfo: { name: 'service-platform' } } } });
      const preflights = seen.filter((r) => r.origin === `http://${storefrontHost}:${page.port}` && r.method === 'OPTIONS');
      expect(preflights.map((r) => r.path).sort()).toEqual(['/graphql', '/mcp', '/v6/customer-portal/auth/otp']);
    });

    it('lets a page on an origin of CORS_ORIGINS call the API, and blocks one on localhost in production', async () => {
      const listed = await fromPage(`http://127.0.0.1:${page.port}/`, production.url, null);
      expect(listed.graphql).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
      const local = await fromPage(`http://localhost:${page.port}/`, production.url, null);
      for (const result of Object.values(local)) expect(result).toEqual({ error: expect.stringMatching(/Failed to fetch/) });
      const calls = seen.filter((r) => r.origin === `http://localhost:${page.port}`);
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((r) => r.method === 'OPTIONS')).toBe(true);
    });

    it('blocks a page on another origin: the preflight fails and the request is never sent', async () => {
      const origin = `http://${strangerHost}:${page.port}`;
      const results = await fromPage(`${origin}/`, api, company.companyId);
      for (const result of Object.values(results)) expect(result).toEqual({ error: expect.stringMatching(/Failed to fetch/) });
      const calls = seen.filter((r) => r.origin === origin);
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((r) => r.method === 'OPTIONS')).toBe(true);
    });
  });
});
