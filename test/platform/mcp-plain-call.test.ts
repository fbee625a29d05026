import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../support/client.ts';
import { bearer, signupCompany, type Company } from '../support/fixtures.ts';
import { testServer, type TestServer } from '../support/server.ts';

/**
 * The plain path of /mcp (facades/mcp/tool-call.ts): a single `tools/call` is answered without the
 * SDK's transport and server. Its answers must be the SDK's, byte for byte: each call is sent as
 * it is (plain path) and again with `_meta` in its params, which the plain path leaves to the SDK
 * and which changes nothing in the answer; `plainCalls` tells which path answered.
 */

let server: TestServer;
let company: Company;
let serviceId: string;

beforeAll(async () => {
  server = await testServer();
  company = await signupCompany('Plain Call Studio');
  const created = await graphql<{ createService: { id: string } }>(
    'mutation { createService(input: { name: "Cut", durationMinutes: 30, price: "25.5" }) { id } }',
    {},
    bearer(company.apiKey),
  );
  serviceId = created.body.data!.createService.id;
});

const ACCEPT = 'application/json, text/event-stream';

async function post(body: unknown, headers: Record<string, string> = {}) {
  const before = server.app.mcp.stats.plainCalls;
  const res = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), text, plain: server.app.mcp.stats.plainCalls - before === 1 };
}

/** The call answered by the plain path and by the SDK; both answers. */
async function both(params: { name: string; arguments?: Record<string, unknown> }, headers: Record<string, string> = {}, id: string | number = 7) {
  // One request id for both, so that an error's (which names it) can be compared.
  const requestId = { 'x-request-id': `plain-${Math.random()}`, ...headers };
  const plain = await post({ jsonrpc: '2.0', id, method: 'tools/call', params }, requestId);
  const sdk = await post({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: {} } }, requestId);
  expect(plain.plain).toBe(true);
  expect(sdk.plain).toBe(false);
  expect({ status: plain.status, type: plain.type }).toEqual({ status: sdk.status, type: sdk.type });
  expect(plain.text).toBe(sdk.text);
  return JSON.parse(plain.text);
}

describe('MCP plain tools/call path', () => {
  it('answers a read as the SDK does: structured content and its text, a wrapped result, numeric and string ids', async () => {
    const merchant = { authorization: `Bearer ${company.apiKey}` };
    const list = await both({ name: 'list_services', arguments: { limit: 5 } }, merchant);
    expect(list.result.structuredContent.items).toHaveLength(1);
    expect(JSON.parse(list.result.content[0].text)).toEqual(list.result.structuredContent);
    const detail = await both({ name: 'get_service_detail', arguments: { serviceId } }, merchant, 'call-1');
    expect(detail.id).toBe('call-1');
    expect(detail.result.structuredContent.id).toBe(serviceId);
    // A list is a page.
    const methods = await both({ name: 'list_payment_methods' }, merchant);
    expect(methods.result.structuredContent).toMatchObject({ items: expect.any(Array), pagination: { page: 1, hasNextPage: false } });
    // Without arguments at all.
    expect((await both({ name: 'get_company' }, merchant)).result.structuredContent.id).toBe(company.companyId);
  });

  it('answers every kind of error as the SDK does', async () => {
    const merchant = { authorization: `Bearer ${company.apiKey}` };
    // The operation's own error, with the request id the client may quote.
    const missing = await both(
      { name: 'get_service_detail', arguments: { serviceId: '00000000-0000-7000-8000-000000000000' } },
      { ...merchant, 'x-request-id': 'plain-404' },
    );
    expect(missing.result.isError).toBe(true);
    expect(JSON.parse(missing.result.content[0].text).error).toMatchObject({ code: 'NOT_FOUND', requestId: 'plain-404' });
    // An argument refused before anything runs.
    const bad = await both({ name: 'list_services', arguments: { limit: 'many' } }, merchant);
    expect(JSON.parse(bad.result.content[0].text).error).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'limit' } });
    // A merchant tool without a key, and a tool nobody has.
    const anonymous = await both({ name: 'list_services' });
    expect(JSON.parse(anonymous.result.content[0].text).error.code).toBe('UNAUTHENTICATED');
    await both({ name: 'no_such_tool' }, merchant);
  });

  it('runs a write once with its idempotency key, answering the replay as the first call', async () => {
    const merchant = { authorization: `Bearer ${company.apiKey}` };
    const params = { name: 'create_staff_member', arguments: { name: 'Plain Ana', idempotencyKey: 'plain-staff-1' } };
    const first = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }, merchant);
    const again = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }, merchant);
    expect(first.plain && again.plain).toBe(true);
    expect(again.text).toBe(first.text);
    const staff = await graphql<{ staffMembers: { items: { name: string }[] } }>(
      '{ staffMembers(search: "Plain Ana") { items { name } } }',
      {},
      bearer(company.apiKey),
    );
    expect(staff.body.data!.staffMembers.items).toHaveLength(1);
  });

  it('leaves to the SDK whatever is not a single well-formed tools/call it would accept', async () => {
    const merchant = { authorization: `Bearer ${company.apiKey}` };
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_company' } };
    const cases: [string, unknown, Record<string, string>, number][] = [
      ['a batch', [call], merchant, 200],
      ['an Accept without event streams', call, { ...merchant, accept: 'application/json' }, 406],
      ['another content type', JSON.stringify(call), { ...merchant, 'content-type': 'text/plain' }, 415],
      ['an unknown protocol version', call, { ...merchant, 'mcp-protocol-version': '1999-01-01' }, 400],
      ['a task', { ...call, params: { ...call.params, task: {} } }, merchant, 200],
      ['a fractional id', { ...call, id: 1.5 }, merchant, 400],
      ['arguments as a list', { ...call, params: { name: 'get_company', arguments: [] } }, merchant, 200],
      ['tools/list', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, merchant, 200],
      ['not JSON', '{"jsonrpc":', merchant, 400],
    ];
    for (const [label, body, headers, status] of cases) {
      const answer = await post(body, headers);
      expect({ label, plain: answer.plain, status: answer.status }).toEqual({ label, plain: false, status });
    }
  });
});
