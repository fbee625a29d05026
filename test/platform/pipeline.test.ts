import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, uniqueEmail } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { signInCustomer, signupCompany, upgradeToStarter, type Company } from '../support/fixtures.ts';
import { validObject } from '../support/malformed.ts';
import { callTool, mcpClient } from '../support/mcp.ts';
import { credentialsFor, operationsOf, sampleRequest, type Credentials, type Operation } from '../support/openapi.ts';
import { testServer, type TestServer } from '../support/server.ts';

/**
 * One pipeline (ARCHITECTURE rule 12): every operation of every interface passes through the
 * gateway's plugin chain. The test server registers one plugin that records what it sees
 * (test/support/server.ts); every REST route and every MCP tool is called once, and each must have
 * been seen. Then every read, with the fast path (router/fast-path.ts) on and off, answers the same.
 */

let server: TestServer;
let company: Company;
let credentials: Credentials;
let merchant: Client;
let operations: Operation[];
/** Ids of things that exist, by the parameter names the routes and tools give them. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await testServer();
  company = await signupCompany('Pipeline Studio');
  // Every tool and route, some twice, within a minute: more than the free plan's rate allows.
  await upgradeToStarter(company.apiKey);
  const customer = await signInCustomer(company.companyId);
  credentials = { companyId: company.companyId, apiKey: company.apiKey, customerToken: customer.token };
  merchant = await mcpClient(company.apiKey);
  operations = operationsOf((await http('/openapi/connect-v6.openapi.json')).body);
  // One of each thing the reads name, so that they answer with data rather than NOT_FOUND.
  const staff = await callTool(merchant, 'create_staff_member', { name: 'Mia' });
  ids.staffId = ids.memberId = staff.id;
  ids.serviceId = ids.id = (
    await callTool(merchant, 'create_service', { name: 'Cut', durationMinutes: 60, price: '30', capacity: 1, staffIds: [staff.id], minimumNoticeMinutes: 0 })
  ).id;
  ids.productId = (await callTool(merchant, 'create_product', { name: 'Mug', price: '12.50', status: 'active', stock: 5, trackInventory: true })).id;
  const member = await http('/v6/customer-portal/auth/register', {
    body: { name: 'Pat', email: uniqueEmail('pat') },
    headers: { 'x-company-id': company.companyId },
  });
  ids.customerId = ids.accountId = member.body.data.member.id;
  ids.eventId = (
    await callTool(merchant, 'create_event', {
      title: 'Open day',
      startsAt: '2031-01-01T10:00:00Z',
      endsAt: '2031-01-01T12:00:00Z',
      capacity: 10,
      status: 'published',
    })
  ).id;
  ids.surveyId = (
    await callTool(merchant, 'create_survey', { title: 'How was it', status: 'published', questions: [{ id: 'r', type: 'rating', label: 'Rating' }] })
  ).id;
  ids.slug = (await callTool(merchant, 'create_post', { title: 'Hello pipeline', blocks: [{ type: 'paragraph', data: { text: 'Hi' } }] })).slug;
  await eventually(async () =>
    expect((await http(`/v6/customer-portal/services/${ids.serviceId}`, { headers: { 'x-company-id': company.companyId } })).status).toBe(200),
  );
});

/** What the probe plugin saw while `run` ran. */
async function seenWhile(run: () => Promise<unknown>) {
  const from = server.seen.length;
  await run();
  return server.seen.slice(from);
}

async function callRest(op: Operation) {
  const { path, body } = sampleRequest(op, ids);
  return http(path, { method: op.method, ...(body !== undefined ? { raw: body } : {}), headers: credentialsFor(op, credentials) });
}

/** The answer without what differs between two runs of the same request. */
/**
 * An answer without what differs from one call to the next by design: the request id, and the
 * counts of the plan's meters (reading the plan is itself an API call, and so counted).
 */
const comparable = (body: unknown) =>
  JSON.parse(
    JSON.stringify(body ?? null)
      .replace(/requestId(\\*)":(\\*)"[\w-]*/g, 'requestId$1":$2"')
      .replace(/(\\*)"(used|remaining)(\\*)":\d+/g, '$1"$2$3":0'),
  );

describe('one pipeline', () => {
  it('a plugin registered once sees every REST route', async () => {
    const unseen: string[] = [];
    let refused = 0;
    for (const op of operations) {
      const via = `rest ${op.method} ${sampleRequest(op, ids).path.split('?')[0]}`;
      let answer: Awaited<ReturnType<typeof callRest>> | undefined;
      const seen = await seenWhile(async () => (answer = await callRest(op)));
      // A request refused before any operation runs (its input, its credential) is not an operation.
      const refusedAtTheDoor = answer!.status === 400 || answer!.status === 401 || answer!.status === 415;
      if (refusedAtTheDoor && !seen.length) refused++;
      // Merchant routes run their MCP tool's operation (facades/rest/tool-routes.ts): whatever ran, it was seen.
      if (!seen.length && !refusedAtTheDoor) unseen.push(`${op.id} → ${answer!.status} ${JSON.stringify(answer!.body).slice(0, 160)} (${via})`);
    }
    expect(unseen).toEqual([]);
    // Most routes do run: the sweep is not passing by refusing everything.
    expect(operations.length - refused).toBeGreaterThan(operations.length * 0.8);
  });

  it('a plugin registered once sees every MCP tool', async () => {
    const { tools } = await merchant.listTools();
    expect(tools.length).toBeGreaterThan(100);
    const unseen: string[] = [];
    for (const tool of tools) {
      const args = { ...validObject(tool.inputSchema) };
      for (const name of Object.keys(args)) if (ids[name] && typeof args[name] === 'string') args[name] = ids[name];
      let result: Awaited<ReturnType<Client['callTool']>> | undefined;
      const seen = await seenWhile(async () => (result = await merchant.callTool({ name: tool.name, arguments: args })));
      if (!seen.some((s) => s.via === `mcp ${tool.name}` && s.operationName === tool.name))
        unseen.push(`${tool.name} → ${JSON.stringify(result).slice(0, 200)}`);
    }
    expect(unseen).toEqual([]);
  });

  it('and every GraphQL operation', async () => {
    const seen = await seenWhile(() =>
      http('/graphql', {
        body: { query: 'query Probe { services { items { id } } }', operationName: 'Probe' },
        headers: { 'x-company-id': company.companyId },
      }),
    );
    expect(seen.map((s) => s.operationName)).toEqual(['Probe']);
  });
});

describe('the fast path changes no answer', () => {
  async function withoutFastPath<T>(run: () => Promise<T>): Promise<T> {
    server.app.gateway.fastPath.enabled = false;
    try {
      return await run();
    } finally {
      server.app.gateway.fastPath.enabled = true;
    }
  }

  it('every REST read route answers the same with the fast path on and off', async () => {
    const reads = operations.filter((op) => op.method === 'GET');
    expect(reads.length).toBeGreaterThan(30);
    const before = server.app.gateway.fastPath.served;
    for (const op of reads) {
      const on = await callRest(op);
      const off = await withoutFastPath(() => callRest(op));
      expect({ status: on.status, body: comparable(on.body) }, op.id).toEqual({ status: off.status, body: comparable(off.body) });
    }
    // The comparison is worth something only if the fast path answered many of them.
    expect(server.app.gateway.fastPath.served - before).toBeGreaterThan(reads.length / 3);
  });

  it('every MCP read tool answers the same with the fast path on and off', async () => {
    const { tools } = await merchant.listTools();
    const reads = tools.filter((t) => t.annotations?.readOnlyHint);
    expect(reads.length).toBeGreaterThan(30);
    const before = server.app.gateway.fastPath.served;
    for (const tool of reads) {
      const args = { ...validObject(tool.inputSchema) };
      for (const name of Object.keys(args)) if (ids[name] && typeof args[name] === 'string') args[name] = ids[name];
      const on = await merchant.callTool({ name: tool.name, arguments: args });
      const off = await withoutFastPath(() => merchant.callTool({ name: tool.name, arguments: args }));
      expect(comparable(on), tool.name).toEqual(comparable(off));
    }
    expect(server.app.gateway.fastPath.served - before).toBeGreaterThan(reads.length / 3);
  });
});
