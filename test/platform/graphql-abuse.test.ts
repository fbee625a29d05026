import { describe, expect, it } from 'vitest';
import { MAX_NESTING, MAX_SELECTIONS } from '../../router/limits.ts';
import { DEFAULT_QUERY_LIMITS } from '../../subgraphs/kernel/config.ts';
import { http } from '../support/client.ts';
import { testServer } from '../support/server.ts';

/**
 * Documents whose cost grows faster than their size: each must be refused by a limit that holds
 * before any step whose cost could explode (validation rules, the depth rule, the cost, the query
 * planner, the fast path). The server runs in this process, so its CPU time and memory are this
 * process's: each refusal must take under 100 ms of CPU, and all of them together grow it by less
 * than 50 MB. (A 1.2 KB fan-out once grew the process past 23 GB until the OS killed it.)
 */

const fanOut = (levels: number, spread: (next: string) => string) =>
  `{ ...G0 } ${Array.from({ length: levels }, (_, i) => `fragment G${i} on Query { ${spread(`G${i + 1}`)} }`).join(' ')} fragment G${levels} on Query { __typename }`;

const CASES: { name: string; body: string; limit: string; max: number }[] = [
  {
    name: 'fragment fan-out, thirty levels (1.2 KB)',
    body: JSON.stringify({ query: fanOut(30, (n) => `...${n} ...${n}`) }),
    limit: 'selections',
    max: MAX_SELECTIONS,
  },
  {
    name: 'fan-out through inline fragments',
    body: JSON.stringify({ query: fanOut(30, (n) => `... on Query { ...${n} } ... on Query { ...${n} }`) }),
    limit: 'selections',
    max: MAX_SELECTIONS,
  },
  {
    name: 'a fragment cycle',
    body: JSON.stringify({ query: '{ ...A } fragment A on Query { company { id } ...B } fragment B on Query { ...A }' }),
    limit: 'selections',
    max: MAX_SELECTIONS,
  },
  { name: 'a fragment spreading itself', body: JSON.stringify({ query: '{ ...A } fragment A on Query { ...A }' }), limit: 'selections', max: MAX_SELECTIONS },
  {
    name: 'a list literal nested 100,000 deep',
    body: JSON.stringify({ query: `{ services(search: ${'['.repeat(100_000)}${']'.repeat(100_000)}) { items { id } } }` }),
    limit: 'nesting',
    max: MAX_NESTING,
  },
  {
    name: 'a list literal nested within the token limit',
    body: JSON.stringify({ query: `{ services(search: ${'['.repeat(900)}${']'.repeat(900)}) { items { id } } }` }),
    limit: 'nesting',
    max: MAX_NESTING,
  },
  {
    name: 'an object literal nested deep',
    body: JSON.stringify({ query: `{ services(search: ${'{a:'.repeat(600)}1${'}'.repeat(600)}) { items { id } } }` }),
    limit: 'nesting',
    max: MAX_NESTING,
  },
  {
    name: 'thousands of operations',
    body: JSON.stringify({ query: Array.from({ length: 3000 }, (_, i) => `query q${i} { __typename }`).join(' '), operationName: 'q1' }),
    limit: 'tokens',
    max: DEFAULT_QUERY_LIMITS.tokens,
  },
  {
    name: 'thousands of variables',
    body: JSON.stringify({ query: `query(${Array.from({ length: 3000 }, (_, i) => `$v${i}: Int`).join(' ')}) { __typename }` }),
    limit: 'tokens',
    max: DEFAULT_QUERY_LIMITS.tokens,
  },
  {
    name: 'a deep selection through fragments',
    body: JSON.stringify({
      query: `{ ...F0 } ${Array.from({ length: 40 }, (_, i) => `fragment F${i} on Query { a { ...F${i + 1} } }`).join(' ')} fragment F40 on Query { id }`,
    }),
    limit: 'depth',
    max: DEFAULT_QUERY_LIMITS.depth,
  },
];

interface Measured {
  status: number;
  body: any;
  cpuMs: number;
}

async function measured(body: string, headers: Record<string, string> = {}): Promise<Measured> {
  const { url } = await testServer();
  const cpu = process.cpuUsage();
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  const used = process.cpuUsage(cpu);
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed, cpuMs: (used.user + used.system) / 1000 };
}

const INTERNALS = /originalError|"stack"|node_modules|at [\w.<>]+ \(/;

describe('GraphQL documents that cost more than their size', () => {
  it('are each refused with 400 QUERY_TOO_COMPLEX, in under 100 ms of CPU, the process growing by less than 50 MB', async () => {
    await testServer();
    // Warm: the first request of a worker loads code that has nothing to do with the case.
    await measured(JSON.stringify({ query: '{ __typename }' }));
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    for (const { name, body, limit, max } of CASES) {
      const answer = await measured(body);
      expect(answer.status, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(400);
      expect(answer.body.errors?.[0]?.extensions, name).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit, max });
      expect(answer.cpuMs, name).toBeLessThan(100);
      expect(JSON.stringify(answer.body), name).not.toMatch(INTERNALS);
    }
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(50 * 1024 * 1024);
  });

  it('a large JSON batch array is refused at once with 400', async () => {
    const answer = await measured(JSON.stringify(Array.from({ length: 20_000 }, () => ({ query: '{ __typename }' }))));
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(answer.cpuMs).toBeLessThan(100);
  });

  it('a body that is not JSON is 400 without echoing it', async () => {
    const answer = await measured('{"query": "{ __typename }", "secret-ish": nope');
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).not.toMatch(/nope|secret-ish/);
    expect(JSON.stringify(answer.body)).not.toMatch(INTERNALS);
  });

  it('ordinary fragments, shared many times below the limit, still answer', async () => {
    const answer = await measured(JSON.stringify({ query: fanOut(6, (n) => `...${n} ...${n}`) }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('hold for a mutation sent with an Idempotency-Key too (its operation is read before the gateway)', async () => {
    const answer = await measured(
      JSON.stringify({
        query: `mutation { ...M } ${fanOut(30, (n) => `...${n} ...${n}`)
          .replace('{ ...G0 } ', '')
          .replaceAll('on Query', 'on Mutation')} fragment M on Mutation { ...G0 }`,
      }),
      { 'idempotency-key': 'abuse-1' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 'selections' });
    expect(answer.cpuMs).toBeLessThan(100);
  });

  it('REST and MCP refuse input nested too deep before it reaches GraphQL', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const rest = await http('/v6/customer-portal/auth/register', {
      raw: `{"name":"a","email":${deep}}`,
      headers: { 'x-company-id': '00000000-0000-0000-0000-000000000000' },
    });
    expect(rest.status).toBeGreaterThanOrEqual(400);
    expect(rest.status).toBeLessThan(500);
    expect(JSON.stringify(rest.body)).not.toMatch(INTERNALS);
    const mcp = await http('/mcp', {
      raw: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"signup_company","arguments":{"name":${deep}}}}`,
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(mcp.status).toBeLessThan(500);
    expect(JSON.stringify(mcp.body)).not.toMatch(INTERNALS);
  });
});
