import { beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_ROUTES } from '../../facades/rest/legacy.ts';
import { SIGNUP_TOOLS } from '../../facades/mcp/guide.ts';
import { http, uniqueEmail } from '../support/client.ts';
import { bearer, signupCompany, type Company } from '../support/fixtures.ts';
import { mcpClient } from '../support/mcp.ts';

/**
 * Authentication before validation (issue 43): a caller without a good credential learns nothing of
 * a route's inputs. Every REST route whose OpenAPI security asks for a credential (derived from the
 * access declared on its root field) and every merchant MCP tool answers 401 whatever the input,
 * without naming a field; so do the legacy adapters.
 */

interface Operation {
  method: string;
  /** OpenAPI's path, with `{param}` segments. */
  path: string;
  /** The credential it asks for: an API key or merchant session, or a customer token. */
  needs: 'apiKey' | 'customerToken';
  query: string[];
}

/** A route's path with each parameter given as `value`. */
const fill = (path: string, value: string) => path.replace(/\{\w+\}/g, value);

/** Inputs a route refuses with 400 naming a field, when the caller may call it: the caller must not get that far. */
function badInputs(op: Operation): { path: string; init: { method: string; raw?: string; headers?: Record<string, string> } }[] {
  const { method } = op;
  const malformed = fill(op.path, 'not-a-uuid');
  const missing = fill(op.path, crypto.randomUUID());
  if (method === 'GET' || method === 'DELETE') {
    const long = op.query[0] ?? 'search';
    return [
      { path: `${malformed}?unknownParam=1`, init: { method } },
      { path: `${missing}?limit=abc&page=-1`, init: { method } },
      { path: `${missing}?${long}=${'x'.repeat(2000)}`, init: { method } },
      { path: `${fill(op.path, '%E0%A4%A')}?${long}=%07`, init: { method } },
    ];
  }
  return [
    { path: malformed, init: { method, raw: JSON.stringify({ unknownField: 1 }) } },
    { path: missing, init: { method, raw: 'not json' } },
    { path: missing, init: { method, raw: '[1,2]' } },
    { path: missing, init: { method, raw: '{}', headers: { 'idempotency-key': 'k'.repeat(500) } } },
    { path: fill(op.path, '%E0%A4%A'), init: { method, raw: JSON.stringify({ idempotencyKey: 5 }) } },
  ];
}

/** A refusal that tells nothing of the route's inputs: its code, a message, no field, no details. */
function expectRefused(res: { status: number; body: any }, status: number, where: string) {
  expect(res.status, `${where}: ${JSON.stringify(res.body)}`).toBe(status);
  expect(res.body.error, where).toEqual({ code: status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN', message: expect.any(String), requestId: expect.any(String) });
  expect(res.body.error.message, where).not.toMatch(INPUT_WORDS);
}

/** What a refusal of the input would say: a field named first (`limit: must be an integer`), or the names sent. */
const INPUT_WORDS = /^[\w.[\]-]+: |unknownParam|unknownField|idempotencyKey|Idempotency-Key|member_uuid|\baction\b|\bemail\b/;

describe('authentication before validation', () => {
  let company: Company;
  let customerToken: string;
  let operations: Operation[];

  beforeAll(async () => {
    company = await signupCompany('Auth First');
    const registered = await http('/v6/customer-portal/auth/register', {
      body: { name: 'Ann', email: uniqueEmail('auth-first') },
      headers: { 'x-company-id': company.companyId },
    });
    customerToken = registered.body.data.token;
    const document = (await http('/openapi/connect-v6.openapi.json')).body;
    operations = [];
    for (const [path, byMethod] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, op] of Object.entries<any>(byMethod)) {
        const security: Record<string, string[]>[] = op.security ?? document.security ?? [];
        // Needs a credential: every alternative names an API key or a customer token (none is anonymous or tenant only).
        if (!security.length || !security.every((s) => 'apiKey' in s || 'customerToken' in s)) continue;
        const query = (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name);
        operations.push({ method: method.toUpperCase(), path, needs: security.some((s) => 'apiKey' in s) ? 'apiKey' : 'customerToken', query });
      }
    }
  }, 120_000);

  it('finds the routes that need a credential in the OpenAPI document: every merchant route, the customer’s own', () => {
    const merchant = operations.filter((o) => o.path.startsWith('/v6/merchant/'));
    expect(merchant.filter((o) => o.method === 'GET' || o.method === 'DELETE').length).toBeGreaterThanOrEqual(38);
    expect(operations.filter((o) => o.needs === 'customerToken').map((o) => `${o.method} ${o.path}`)).toContain('GET /v6/customer-portal/bookings');
    expect(operations.map((o) => `${o.method} ${o.path}`)).toContain('GET /v6/merchant/bookings/services');
  });

  it('answers 401 to a caller without credentials whatever the input, on every route that needs them', async () => {
    for (const op of operations) {
      for (const { path, init } of badInputs(op)) {
        // With the tenant named and without: neither is a credential.
        for (const headers of [{} as Record<string, string>, { 'x-company-id': company.companyId }]) {
          expectRefused(await http(path, { ...init, headers: { ...headers, ...init.headers } }), 401, `${init.method} ${path}`);
        }
      }
    }
  }, 120_000);

  it('answers 401 to a bad credential whatever the input, and the wrong kind of credential before the input', async () => {
    const bad = ['Bearer svc_mcp_not-a-real-key', 'Bearer not.a.token', 'Basic dXNlcjpwYXNz'];
    for (const op of operations) {
      for (const { path, init } of badInputs(op)) {
        for (const authorization of bad)
          expectRefused(await http(path, { ...init, headers: { ...init.headers, authorization } }), 401, `${authorization}: ${init.method} ${path}`);
        // A good credential of the other kind: a customer is forbidden merchant routes, a merchant is no customer.
        const other = op.needs === 'apiKey' ? bearer(customerToken) : bearer(company.apiKey);
        expectRefused(
          await http(path, { ...init, headers: { ...init.headers, ...other, 'x-company-id': company.companyId } }),
          op.needs === 'apiKey' ? 403 : 401,
          `other kind: ${init.method} ${path}`,
        );
      }
    }
  }, 120_000);

  it('still validates the input of a caller with the credential: 400 naming the field', async () => {
    const list = await http('/v6/merchant/services?unknownParam=1', { headers: bearer(company.apiKey) });
    expect(list.status).toBe(400);
    expect(list.body.error.details.field).toBe('unknownParam');
    const bookings = await http('/v6/customer-portal/bookings?unknownParam=1', { headers: { ...bearer(customerToken), 'x-company-id': company.companyId } });
    expect(bookings.status).toBe(400);
    expect(bookings.body.error.details.field).toBe('unknownParam');
    const services = await http('/v6/merchant/bookings/services?unknownParam=1', { headers: bearer(company.apiKey) });
    expect(services.status).toBe(400);
    expect(services.body.error.details.field).toBe('unknownParam');
  });

  it('answers the legacy adapters’ callers without a good credential with 401 before reading their input', async () => {
    const adapters = LEGACY_ROUTES.filter((r) => r.path.includes('/members/') && !r.path.endsWith('/register/'));
    expect(adapters.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /connect/v1/members/search/',
      'POST /connect/v1/members/reward-transactions/',
      'POST /connect/v1/members/{member_uuid}/token/',
    ]);
    const calls = [
      { path: '/connect/v1/members/search/', init: { method: 'GET' } },
      { path: '/connect/v1/members/search/?unknownParam=1', init: { method: 'GET' } },
      { path: '/connect/v1/members/reward-transactions/', init: { method: 'POST', raw: '[1,2]' } },
      { path: '/connect/v1/members/reward-transactions/', init: { method: 'POST', raw: '{}' } },
      { path: '/connect/v1/members/not-a-uuid/token/', init: { method: 'POST', raw: JSON.stringify({ action: 'explode' }) } },
      { path: `/connect/v1/members/${crypto.randomUUID()}/token/`, init: { method: 'POST' } },
      // A route run through its v6 successor (a customer's bookings) is refused there.
      { path: '/connect/v1/booking-records/?unknownParam=1', init: { method: 'GET' } },
    ];
    for (const { path, init } of calls) {
      for (const headers of [
        {} as Record<string, string>,
        { 'x-company-id': company.companyId },
        { authorization: 'Bearer svc_mcp_not-a-real-key' },
        { authorization: 'Bearer not.a.token' },
      ]) {
        const res = await http(path, { ...init, headers });
        expect(res.status, `${init.method} ${path} ${JSON.stringify(headers)}: ${JSON.stringify(res.body)}`).toBe(401);
        expect(res.body.error).toEqual({ code: 'UNAUTHENTICATED', message: expect.any(String), requestId: expect.any(String) });
        expect(res.body.error.message).not.toMatch(INPUT_WORDS);
      }
    }
  });

  it('answers every merchant MCP tool called without a key UNAUTHENTICATED whatever the arguments, and a bad key 401', async () => {
    const merchant = await mcpClient(company.apiKey);
    const names = (await merchant.listTools()).tools.map((t) => t.name).filter((n) => !(SIGNUP_TOOLS as readonly string[]).includes(n));
    expect(names.length).toBeGreaterThan(80);
    const call = (name: string, args: unknown, headers: Record<string, string> = {}) =>
      http('/mcp', {
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
        headers: { accept: 'application/json, text/event-stream', ...headers },
      });
    for (const name of names) {
      // One answer whatever the arguments: nothing in it depends on them.
      const anonymous = new Set<string>();
      const badKey = new Set<string>();
      for (const args of [{}, { unknownField: 1 }, { id: 'not-a-uuid', limit: 'abc', idempotencyKey: 5 }]) {
        const res = await call(name, args);
        expect(res.status, name).toBe(200);
        expect(res.body.result.isError, name).toBe(true);
        const { error } = JSON.parse(res.body.result.content[0].text);
        expect(error.code, name).toBe('UNAUTHENTICATED');
        expect(error.details?.field, name).toBeUndefined();
        const { requestId: _r, ...rest } = error;
        anonymous.add(JSON.stringify(rest));
        for (const authorization of ['Bearer svc_mcp_not-a-real-key', 'Bearer not.a.token', 'Basic dXNlcjpwYXNz']) {
          const refused = await call(name, args, { authorization });
          expect(refused.status, `${name} ${authorization}`).toBe(401);
          expect(refused.headers.get('www-authenticate'), name).toContain('Bearer');
          expect(refused.body.error.message, name).not.toMatch(INPUT_WORDS);
          badKey.add(`${authorization} ${JSON.stringify(refused.body)}`);
        }
      }
      expect(anonymous.size, name).toBe(1);
      expect(badKey.size, name).toBe(3);
    }
  }, 120_000);
});
