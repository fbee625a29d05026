import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Kind, parse, print, type DocumentNode, type GraphQLError, type OperationDefinitionNode } from 'graphql';
import { filterSchema, pruneSchema } from '@graphql-tools/utils';
import { createSofa } from 'sofa-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../facades/mcp/registry.ts';
import { HIDDEN_FIELDS, ROUTES } from '../../facades/rest/manifests/index.ts';
import { toErrorBody } from '../../facades/errors.ts';
import { costAnnotations, limitError, MAX_NESTING, operationCost } from '../../router/limits.ts';
import { DEFAULT_QUERY_LIMITS } from '../../subgraphs/kernel/config.ts';
import { MAX_LIMIT } from '../../subgraphs/kernel/pagination.ts';
import { dayFromNow, setupSalon, type Salon } from '../support/booking.ts';
import { graphql, http } from '../support/client.ts';
import { bearer, signInCustomer } from '../support/fixtures.ts';
import { callTool } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';

const limits = DEFAULT_QUERY_LIMITS;
const supergraph = readFileSync(join(import.meta.dirname, '../../schema/supergraph.graphql'), 'utf8');
const P = '/v6/customer-portal';

/** An operation's variables at their most expensive: every list at its largest page. */
function worstVariables(operation: OperationDefinitionNode): Record<string, unknown> {
  return Object.fromEntries(
    (operation.variableDefinitions ?? []).filter((v) => v.variable.name.value === 'limit').map((v) => [v.variable.name.value, MAX_LIMIT]),
  );
}

/** SOFA's operation for a REST route, built as SOFA builds it (its own @graphql-tools/utils, depth limit 2). */
function restOperations(apiSchema: Parameters<typeof filterSchema>[0]['schema']): { route: string; document: DocumentNode }[] {
  const allowed = new Set<string>(ROUTES.map((r) => r.field));
  const schema = pruneSchema(
    filterSchema({
      schema: apiSchema,
      rootFieldFilter: (op, name) => allowed.has(`${op}.${name}`),
      fieldFilter: (type, field) => !HIDDEN_FIELDS.has(`${type}.${field}`),
    }),
  );
  const sofa = createSofa({ schema, depthLimit: 2 } as Parameters<typeof createSofa>[0]);
  const require = createRequire(import.meta.url);
  const { buildOperationNodeForField } = createRequire(join(dirname(require.resolve('sofa-api')), 'index.js'))('@graphql-tools/utils');
  return ROUTES.map((r) => {
    const [type, field] = r.field.split('.');
    const operation = buildOperationNodeForField({
      kind: type === 'Query' ? 'query' : 'mutation',
      schema,
      field,
      models: sofa.models,
      ignore: sofa.ignore,
      circularReferenceDepth: sofa.depthLimit,
    });
    // Printed and parsed again, so the document is this realm's graphql AST.
    return { route: `${r.method} /v6${r.path}`, document: parse(print({ kind: Kind.DOCUMENT, definitions: [operation] })) };
  });
}

interface Refusal {
  status: number;
  errors: { message: string; extensions: Record<string, any> }[];
  ms: number;
}

async function send(query: string, headers: Record<string, string> = {}, variables: Record<string, unknown> = {}): Promise<Refusal> {
  const started = performance.now();
  const res = await graphql(query, variables, headers);
  return { status: res.status, errors: (res.body?.errors ?? []) as Refusal['errors'], ms: performance.now() - started };
}

function expectRefused(res: Refusal, limit: string, message: RegExp) {
  expect(res.status, JSON.stringify(res.errors).slice(0, 500)).toBe(400);
  const refusal = res.errors.find((e) => e.extensions?.code === 'QUERY_TOO_COMPLEX');
  expect(refusal, JSON.stringify(res.errors).slice(0, 500)).toBeDefined();
  expect(refusal!.extensions).toMatchObject({ limit, max: (limits as any)[limit] });
  expect(refusal!.message).toMatch(message);
  // No stack trace, no internals.
  expect(JSON.stringify(res.errors)).not.toMatch(/stack|at [\w.]+ \(|node_modules/);
}

describe('GraphQL limits: ordinary operations stay under them', () => {
  it('every MCP tool and every REST route, with every list at its largest page', async () => {
    const { app } = await testServer();
    const schema = await app.gateway.getSchema();
    const costs = costAnnotations(supergraph);
    // The router's own parse and validate, with its limit plugins.
    const { parse: routerParse, validate: routerValidate } = app.gateway.getEnveloped({
      request: new Request('http://router.internal/graphql', { method: 'POST' }),
    });
    const checked: { name: string; cost: number }[] = [];
    const check = (name: string, source: string) => {
      const document = routerParse(source) as DocumentNode;
      const refused = (routerValidate(schema, document) as readonly GraphQLError[]).filter((e) => e.extensions?.code === 'QUERY_TOO_COMPLEX');
      expect(
        refused.map((e) => e.message),
        name,
      ).toEqual([]);
      const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
      const cost = operationCost(schema, document, worstVariables(operation), costs, limits);
      expect(cost, `${name} costs ${cost}`).toBeLessThanOrEqual(limits.cost);
      checked.push({ name, cost });
    };
    const tools = loadTools(schema);
    expect(tools.length).toBeGreaterThan(40);
    for (const tool of tools) check(`MCP ${tool.name}`, tool.query);
    const routes = restOperations(schema);
    expect(routes).toHaveLength(ROUTES.length);
    for (const { route, document } of routes) check(route, print(document));
    // With a margin: the dearest ordinary operation uses under half the budget.
    const dearest = checked.reduce((a, b) => (b.cost > a.cost ? b : a));
    expect(dearest.cost, dearest.name).toBeLessThan(limits.cost / 2);
  });

  it('runs the dearest ordinary reads end to end', async () => {
    const salon = await setupSalon({ staffCount: 2 });
    const { merchant, company, service } = salon;
    const h = { 'x-company-id': company.companyId };
    // MCP: a merchant's largest pages and a two-month range of slots.
    expect((await callTool(merchant, 'list_bookings', { limit: 100 })).items).toEqual([]);
    expect((await callTool(merchant, 'list_services', { limit: 100 })).items).toHaveLength(1);
    const range = await callTool(merchant, 'get_available_slots', { serviceId: service.id, startDate: dayFromNow(1), endDate: dayFromNow(60), limit: 100 });
    expect(range.items).toHaveLength(100);
    expect(range.pagination.total).toBeGreaterThan(100);
    // REST: the customer's bookings at the largest page, the services, a day's slots.
    const me = await signInCustomer(company.companyId);
    expect((await http(`${P}/bookings?limit=100`, { headers: bearer(me.token) })).status).toBe(200);
    expect((await http(`${P}/services?limit=100`, { headers: h })).status).toBe(200);
    expect((await http(`${P}/services/${service.id}/slots?date=${dayFromNow(3)}`, { headers: h })).status).toBe(200);
    // GraphQL: a storefront's fortnight of slots in one request, with who is free for each.
    const days = Array.from({ length: 14 }, (_, i) => dayFromNow(i + 1));
    const fortnight = await graphql(
      `query Fortnight($id: ID!) { ${days.map((d, i) => `d${i}: serviceSlots(id: $id, date: "${d}") { date items { start end remainingCapacity staff { id name } resources { id name } } }`).join(' ')} }`,
      { id: service.id },
      h,
    );
    expect(fortnight.body.errors).toBeUndefined();
    expect(Object.keys(fortnight.body.data)).toHaveLength(14);
    // GraphiQL's introspection (depth 15 inside __schema, which depth does not count).
    const { getIntrospectionQuery } = await import('graphql');
    const introspection = await graphql(
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }),
    );
    expect(introspection.body.errors).toBeUndefined();
    expect(introspection.body.data.__schema.types.length).toBeGreaterThan(50);
  });
});

describe('GraphQL limits: abusive operations are refused with 400 before anything runs', () => {
  let salon: Salon;
  let customer: { token: string; customerId: string; email: string };
  let h: Record<string, string>;
  beforeAll(async () => {
    salon = await setupSalon();
    h = { 'x-company-id': salon.company.companyId };
    customer = await signInCustomer(salon.company.companyId);
    // The customer has bookings, so a nest of bookings → customer → bookings has rows to multiply.
    const slots = (await http(`${P}/services/${salon.service.id}/slots?date=${dayFromNow(5)}`, { headers: h })).body.data.items;
    for (const slot of slots.slice(0, 3)) {
      const booked = await http(`${P}/bookings/guest`, {
        body: {
          serviceId: salon.service.id,
          occurrenceStart: slot.start,
          occurrenceEnd: slot.end,
          customerName: 'Nest',
          customerPhone: '+4915112345678',
          customerEmail: customer.email,
        },
        headers: { ...h, ...bearer(customer.token) },
      });
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    }
  });

  it('a selection nested 10,000 deep, without a credential: the nesting limit, before the parser recurses', async () => {
    const res = await send(`{ ${'a { '.repeat(10_000)}b${' }'.repeat(10_000)} }`);
    expect(res.status).toBe(400);
    expect(res.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 'nesting', max: MAX_NESTING });
    // Within the nesting limit the document parses, and the depth limit refuses it.
    const levels = MAX_NESTING - 1;
    expectRefused(
      await send(`{ ${'a { '.repeat(levels)}b${' }'.repeat(levels)} }`),
      'depth',
      new RegExp(`^Query depth ${levels + 1} exceeds the limit of ${limits.depth}$`),
    );
  });

  it('a list literal of 100,000 values: the token limit', async () => {
    const res = await send(`{ serviceSlots(id: [${Array.from({ length: 100_000 }, (_, i) => i).join(',')}], date: "2030-01-01") { date } }`, h);
    expectRefused(res, 'tokens', /tokens/);
  });

  it('1,000 aliases of serviceSlots from an anonymous caller: refused (tokens); 100 compact aliases: the alias limit', async () => {
    const aliases = (n: number) =>
      `query Slots($id: ID!) { ${Array.from({ length: n }, (_, i) => `s${i}: serviceSlots(id: $id, date: "${dayFromNow(1 + (i % 60))}") { date }`).join(' ')} }`;
    expectRefused(await send(aliases(1000), h, { id: salon.service.id }), 'tokens', /tokens/);
    const compact = `query Slots($id: ID!, $d: String!) { ${Array.from({ length: 100 }, (_, i) => `s${i}:serviceSlots(id:$id,date:$d){date}`).join(' ')} }`;
    expectRefused(
      await send(compact, h, { id: salon.service.id, d: dayFromNow(2) }),
      'aliases',
      new RegExp(`Query uses 100 aliases, over the limit of ${limits.aliases}`),
    );
  });

  it('serviceSlots many times within the alias limit: the cost limit', async () => {
    const days = Array.from({ length: limits.aliases }, (_, i) => dayFromNow(i + 1));
    const res = await send(
      `query Month($id: ID!) { ${days.map((d, i) => `d${i}: serviceSlots(id: $id, date: "${d}") { items { start staff { id } resources { id } } }`).join(' ')} }`,
      h,
      { id: salon.service.id },
    );
    expectRefused(res, 'cost', new RegExp(`^Query cost \\d+ exceeds the limit of ${limits.cost}`));
    expect(res.errors[0].extensions.found).toBeGreaterThan(limits.cost);
  });

  it("a signed-in customer's 12-deep currentCustomer { bookings { customer { bookings … } } }: the depth limit; a shallower nest: the cost limit", async () => {
    const nest = (levels: number) => `{ currentCustomer { ${'bookings { customer { '.repeat(levels)}id${' } }'.repeat(levels)} } }`;
    const deep = await send(nest(6), bearer(customer.token));
    expectRefused(deep, 'depth', new RegExp(`^Query depth 14 exceeds the limit of ${limits.depth}`));
    // Within the depth limit, each level multiplies the bookings read: the estimate refuses it.
    const shallow = await send(nest(4), bearer(customer.token));
    expectRefused(shallow, 'cost', /^Query cost \d+ exceeds the limit/);
    // One level is an ordinary read.
    const one = await send(nest(1), bearer(customer.token));
    expect(one.status).toBe(200);
    expect(one.errors).toEqual([]);
  });

  it('many directives: the directive limit', async () => {
    const res = await send(`{ __typename ${'@skip(if: false) '.repeat(limits.directives + 5)} }`);
    expectRefused(res, 'directives', new RegExp(`Query uses ${limits.directives + 5} directives, over the limit of ${limits.directives}`));
  });

  it('a page far larger than any list gives: refused as too costly before any subgraph runs', async () => {
    // The estimate counts `limit` as given; a cheap over-large page reaches the list, which names `limit`.
    const res = await send('{ bookings(limit: 1000000) { items { id service { id name } staff { id } } } }', bearer(salon.company.apiKey));
    expectRefused(res, 'cost', /^Query cost \d+ exceeds the limit/);
  });

  it('a refusal carries the catalogue code and the limit, nothing internal; REST and MCP map it to 400', async () => {
    const res = await http('/graphql', { method: 'POST', body: { query: `{ ${'__typename '.repeat(limits.tokens + 1)}}` } });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(1);
    const [error] = res.body.errors;
    expect(error).toMatchObject({
      message: `The document has more than ${limits.tokens} tokens, the limit; send a smaller query`,
      extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'tokens', max: limits.tokens },
    });
    for (const internal of ['http', 'stack', 'originalError', 'exception']) expect(error.extensions).not.toHaveProperty(internal);
    // The facades' error mapping (REST envelope status, MCP error body).
    const mapped = toErrorBody(limitError('cost', limits.cost, limits.cost + 1));
    expect(mapped).toEqual({
      status: 400,
      body: { code: 'QUERY_TOO_COMPLEX', message: expect.stringMatching(/^Query cost/), details: { limit: 'cost', max: limits.cost, found: limits.cost + 1 } },
    });
  });

  it('keeps /healthz answering while the attacks are refused', async () => {
    const attacks: Record<string, () => Promise<Refusal>> = {
      'nested 10,000 deep': () => send(`{ ${'a { '.repeat(10_000)}b${' }'.repeat(10_000)} }`),
      'list literal of 100,000': () =>
        send(`{ serviceSlots(id: [${Array.from({ length: 100_000 }, (_, i) => i).join(',')}], date: "2030-01-01") { date } }`, h),
      '1,000 aliases of serviceSlots': () =>
        send(
          `query Slots($id: ID!) { ${Array.from({ length: 1000 }, (_, i) => `s${i}: serviceSlots(id: $id, date: "${dayFromNow(1 + (i % 60))}") { date }`).join(' ')} }`,
          h,
          { id: salon.service.id },
        ),
      '30 serviceSlots (cost)': () =>
        send(
          `query M($id: ID!) { ${Array.from({ length: 30 }, (_, i) => `d${i}: serviceSlots(id: $id, date: "${dayFromNow(i + 1)}") { items { start staff { id } resources { id } } }`).join(' ')} }`,
          h,
          { id: salon.service.id },
        ),
      '12-deep customer nest': () => send(`{ currentCustomer { ${'bookings { customer { '.repeat(6)}id${' } }'.repeat(6)} } }`, bearer(customer.token)),
      '200 directives': () => send(`{ __typename ${'@skip(if: false) '.repeat(200)} }`),
    };
    // One at a time: how long a refusal takes (printed, not asserted: machines differ).
    const alone: string[] = [];
    for (const [name, attack] of Object.entries(attacks)) {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await attack();
        expect(res.status, name).toBe(400);
        times.push(res.ms);
      }
      alone.push(`${name} ${median(times).toFixed(0)} ms`);
    }
    // All at once, four times over, while /healthz is asked again and again.
    const health: number[] = [];
    let attacking = true;
    const probe = (async () => {
      while (attacking) {
        const started = performance.now();
        const res = await http('/healthz');
        expect(res.status).toBe(200);
        health.push(performance.now() - started);
      }
    })();
    const rounds = await Promise.all(Array.from({ length: 4 }, () => Promise.all(Object.values(attacks).map((a) => a()))));
    attacking = false;
    await probe;
    const refusals = rounds.flat();
    for (const r of refusals) expect(r.status).toBe(400);
    expect(health.length).toBeGreaterThan(0);
    console.log(
      `[graphql-limits] alone (median of 3, client time incl. building the body): ${alone.join('; ')}\n` +
        `[graphql-limits] ${refusals.length} at once: slowest ${Math.max(...refusals.map((r) => r.ms)).toFixed(0)} ms; /healthz meanwhile ${health.length} answers, slowest ${Math.max(...health).toFixed(0)} ms`,
    );
  });
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
