import { beforeAll, describe, expect, it } from 'vitest';
import { graphql, http } from '../support/client.ts';
import { bearer, signupCompany, type Company } from '../support/fixtures.ts';
import { testServer, type TestServer } from '../support/server.ts';
import { statementsOf } from '../support/sql.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';

/**
 * The fast path (router/fast-path.ts), a step of the gateway's execution: a query one subgraph
 * answers as asked goes to it without the plan's execution. Its answers must be the plan's, byte
 * for byte: each case is sent with the fast path on and again with it off, and the two answers
 * compared; `served` tells whether the fast path answered.
 */

let server: TestServer;
let company: Company;
let serviceId: string;
let sent = 0;

beforeAll(async () => {
  server = await testServer();
  company = await signupCompany('Direct Studio');
  const created = await graphql<{ createService: { id: string } }>(
    'mutation { createService(input: { name: "Cut", durationMinutes: 30, price: "25.5" }) { id } }',
    {},
    bearer(company.apiKey),
  );
  serviceId = created.body.data!.createService.id;
});

const SERVICES =
  'query services($limit: Int) { services(limit: $limit) { items { id name price { amount currency } category { id } staff { id } } pagination { total } } }';

/** The answer with the fast path on and with it off, for the same request; and whether the fast path served it. */
async function both(body: unknown, headers: Record<string, string> = {}) {
  const requestId = `fast-${++sent}`;
  const init = () => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-company-id': company.companyId, 'x-request-id': requestId, ...headers },
    body: JSON.stringify(body),
  });
  const before = fastPath().served;
  const routed = await fetch(`${server.url}/graphql`, init());
  const routedText = await routed.text();
  const served = fastPath().served - before;
  const alone = await withoutFastPath(() => fetch(`${server.url}/graphql`, init()));
  return {
    served: served === 1,
    routed: { status: routed.status, type: routed.headers.get('content-type'), body: routedText },
    gateway: { status: alone.status, type: alone.headers.get('content-type'), body: await alone.text() },
  };
}

const fastPath = () => server.app.gateway.fastPath;

async function withoutFastPath<T>(run: () => Promise<T>): Promise<T> {
  fastPath().enabled = false;
  try {
    return await run();
  } finally {
    fastPath().enabled = true;
  }
}

describe('the fast path inside the gateway', () => {
  it('answers a one-subgraph query as the gateway does, for each media type a client may accept', async () => {
    for (const accept of [
      undefined,
      '*/*',
      'application/json',
      'application/graphql-response+json',
      'application/graphql-response+json, application/json;q=0.9',
      'application/json, application/graphql-response+json',
    ]) {
      const answer = await both({ query: SERVICES, variables: { limit: 5 }, operationName: 'services' }, accept ? { accept } : {});
      expect(answer.served, accept).toBe(true);
      expect(answer.routed, accept).toEqual(answer.gateway);
      expect(JSON.parse(answer.routed.body).data.services.items[0]).toMatchObject({ id: serviceId, name: 'Cut', price: { amount: '25.50' } });
    }
    // The planner writes arguments and variables in name order: the same question, served.
    const reordered = await both({
      query: 'query($search: String, $limit: Int) { services(search: $search, limit: $limit) { items { id name } } }',
      variables: { search: 'Cut', limit: 3 },
    });
    expect(reordered.served).toBe(true);
    expect(reordered.routed).toEqual(reordered.gateway);
    // Directives, aliases, defaults and __typename: whichever path answers, the answer is the gateway's.
    const shapes: [string, unknown, boolean][] = [
      ['skip, true', { query: 'query($s: Boolean!) { services { items { id name @skip(if: $s) } } }', variables: { s: true } }, true],
      ['skip, false', { query: 'query($s: Boolean!) { services { items { id name @skip(if: $s) } } }', variables: { s: false } }, true],
      ['aliases', { query: '{ first: services(limit: 1) { items { id } } all: services(limit: 5) { items { label: name } pagination { total } } }' }, true],
      ['a default', { query: 'query($limit: Int = 2) { services(limit: $limit) { items { id } } }' }, true],
      ['nested __typename', { query: '{ services { items { __typename id price { __typename amount } } } }' }, true],
      [
        'fragments',
        {
          query:
            'query S { services { items { id ...S ... on Service { price { ...P } } } } } fragment S on Service { id name } fragment P on Money { amount currency }',
        },
        true,
      ],
      ['an extension the gateway ignores', { query: SERVICES, extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } } }, true],
      [
        'a fragment with a directive',
        { query: 'query($x: Boolean!) { services { items { id ...S @include(if: $x) } } } fragment S on Service { name }', variables: { x: false } },
        true,
      ],
    ];
    // Yoga executes before it finds it cannot answer in the media type asked for (406): as without the fast path.
    const unsupported = await both({ query: SERVICES }, { accept: 'text/html' });
    expect(unsupported.routed).toEqual(unsupported.gateway);
    for (const [name, body, direct] of shapes) {
      const answer = await both(body);
      expect(answer.served, name).toBe(direct);
      expect(answer.routed, name).toEqual(answer.gateway);
    }
    // The caller's credential reaches the subgraph: a merchant field answers with the merchant's key.
    const merchant = await both({ query: '{ company { id name } }' }, bearer(company.apiKey));
    expect(merchant.served).toBe(true);
    expect(merchant.routed).toEqual(merchant.gateway);
    expect(JSON.parse(merchant.routed.body).data.company.id).toBe(company.companyId);
  });

  it('leaves to the gateway what it cannot answer as asked, with the same answer', async () => {
    const cases: [string, unknown, Record<string, string>?][] = [
      ['root __typename, which the planner moves', { query: '{ __typename services { items { id } } }' }],
      ['two subgraphs', { query: '{ services { items { id } } company { id } }' }, bearer('svc_live_nope')],
      ['introspection', { query: '{ __schema { queryType { name } } }' }],
      ['a mutation', { query: 'mutation { createServiceCategory(input: { name: "Direct" }) { name } }' }],
      ['an error from the subgraph', { query: 'query($id: ID!) { service(id: $id) { id } }', variables: { id: '00000000-0000-0000-0000-000000000000' } }],
      ['a variable that does not coerce', { query: SERVICES, variables: { limit: 'many' } }],
      ['a list too costly', { query: SERVICES, variables: { limit: 100000000 } }],
      [
        'a control character in a variable',
        { query: 'query($search: String) { services(search: $search) { items { id } } }', variables: { search: 'a\u0000b' } },
      ],
      ['an unknown field', { query: '{ services { items { nope } } }' }],
      ['not a document', { query: '{ services ' }],
      ['an operation not in the document', { query: SERVICES, operationName: 'other' }],
    ];
    for (const [name, body, headers] of cases) {
      const answer = await both(body, headers);
      expect(answer.served, name).toBe(false);
      if (name !== 'a mutation') expect(answer.routed, name).toEqual(answer.gateway);
    }
  });

  it('hands a subgraph’s error answer to the gateway rather than running the query twice', async () => {
    const missing = { query: 'query($id: ID!) { service(id: $id) { id } }', variables: { id: '00000000-0000-0000-0000-000000000000' } };
    const init = () => ({ method: 'POST', headers: { 'content-type': 'application/json', 'x-company-id': company.companyId }, body: JSON.stringify(missing) });
    const alone = await withoutFastPath(() => statementsOf(() => fetch(`${server.url}/graphql`, init())));
    const routed = await statementsOf(() => fetch(`${server.url}/graphql`, init()));
    expect(alone.length).toBeGreaterThan(0);
    expect(routed).toEqual(alone);
    const rest = await statementsOf(() => http(`/v6/customer-portal/services/${missing.variables.id}`, { headers: { 'x-company-id': company.companyId } }));
    expect(rest).toEqual(alone);
  });

  it('checks the cost with each request’s own variables', async () => {
    const small = await both({ query: SERVICES, variables: { limit: 3 } });
    expect(small.served).toBe(true);
    const large = await both({ query: SERVICES, variables: { limit: 100000000 } });
    expect(large.served).toBe(false);
    expect(large.routed.status).toBe(400);
    expect(JSON.parse(large.routed.body).errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 'cost' });
  });

  it('serves the REST facade’s reads the same way, and leaves its errors and writes to the gateway', async () => {
    const h = { 'x-company-id': company.companyId };
    let before = fastPath().served;
    const listed = await http('/v6/customer-portal/services?limit=5', { headers: h });
    expect(fastPath().served - before).toBe(1);
    expect(listed.status).toBe(200);
    const viaGraphql = await graphql('{ services(limit: 5) { items { id name } pagination { total } } }', {}, h);
    expect(listed.body.data.items.map((s: any) => [s.id, s.name])).toEqual(viaGraphql.body.data!.services.items.map((s: any) => [s.id, s.name]));
    expect(listed.body.data.pagination.total).toBe(viaGraphql.body.data!.services.pagination.total);

    before = fastPath().served;
    const missing = await http('/v6/customer-portal/services/00000000-0000-0000-0000-000000000000', { headers: h });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    const costly = await http('/v6/customer-portal/services?limit=1000', { headers: h });
    expect(costly.status).toBe(400);
    // Over the cost limit: refused by the gateway's check, as before.
    expect(costly.body.error).toMatchObject({ code: 'QUERY_TOO_COMPLEX', details: { limit: 'cost' } });
    expect(fastPath().served - before).toBe(0);
  });

  it('serves the MCP tools’ reads the same way (their fragments inlined as the planner does)', async () => {
    const merchant = await mcpClient(company.apiKey);
    let before = fastPath().served;
    const listed = await callTool(merchant, 'list_services', { limit: 5 });
    expect(fastPath().served - before).toBe(1);
    expect(listed.items.find((s: any) => s.id === serviceId)).toMatchObject({ name: 'Cut', price: { amount: '25.50' } });
    before = fastPath().served;
    const variables = { serviceId: '00000000-0000-0000-0000-000000000000' };
    const missing = await toolError(merchant, 'get_service_detail', variables);
    expect(missing.code).toBe('NOT_FOUND');
    expect(fastPath().served - before).toBe(0);
    // The subgraph's error answer is handed to the plan's run: the query runs once, as without the fast path.
    const alone = await withoutFastPath(() => statementsOf(() => toolError(merchant, 'get_service_detail', variables)));
    expect(alone.length).toBeGreaterThan(0);
    expect(await statementsOf(() => toolError(merchant, 'get_service_detail', variables))).toEqual(alone);
    await merchant.close();
  });
});
