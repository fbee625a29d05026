import { getEncoding } from 'js-tiktoken';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_BUDGETS } from '../../scripts/bench/tokens.ts';
import { TOOLSET_NAMES } from '../../subgraphs/kernel/toolsets.ts';
import { signupCompany, type Company } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';

const DISCOVERY = ['call_tool', 'describe_tool', 'list_toolsets', 'search_tools'];
/** Token budgets of a tools/list answer (o200k, the tokenizer of current OpenAI models), as `npm run bench` prints them. */
const { dynamic: DYNAMIC_BUDGET, toolset: TOOLSET_BUDGET } = TOKEN_BUDGETS;

let company: Company;
let all: { name: string; annotations?: { readOnlyHint?: boolean } }[];
/** Every tool's toolset, as list_toolsets and search_tools report them. */
const toolsetOf = new Map<string, string>();

const names = (tools: { name: string }[]) => tools.map((t) => t.name).sort();
const listed = async (options: Parameters<typeof mcpClient>[1]) => (await (await mcpClient(company.apiKey, options)).listTools()).tools;

beforeAll(async () => {
  company = await signupCompany('Toolsets Studio');
  all = (await (await mcpClient(company.apiKey)).listTools()).tools;
  const dynamic = await mcpClient(company.apiKey, { path: '/mcp/dynamic' });
  for (const toolset of TOOLSET_NAMES) {
    const { items } = await callTool(dynamic, 'search_tools', { query: toolset, toolset, limit: 50 });
    for (const t of items) toolsetOf.set(t.name, t.toolset);
  }
});

describe('MCP toolsets, read-only and dynamic mode', () => {
  it('every tool belongs to one toolset, and list_toolsets describes them with their counts', async () => {
    const client = await mcpClient(company.apiKey, { path: '/mcp/dynamic' });
    const { items } = await callTool(client, 'list_toolsets');
    expect(items.map((t: { name: string }) => t.name)).toEqual(TOOLSET_NAMES.filter((n) => items.some((t: { name: string }) => t.name === n)));
    expect(items.reduce((sum: number, t: { tools: number }) => sum + t.tools, 0)).toBe(all.length);
    const booking = items.find((t: { name: string }) => t.name === 'booking');
    expect(booking).toMatchObject({ description: expect.stringContaining('bookings'), tools: expect.any(Number), readOnlyTools: expect.any(Number) });
    expect(toolsetOf.size).toBe(all.length);
  });

  it('narrows the listing by path or header, and refuses a tool of another toolset', async () => {
    const expected = names(all.filter((t) => ['booking', 'shop'].includes(toolsetOf.get(t.name)!)));
    expect(expected.length).toBeGreaterThan(10);
    expect(names(await listed({ path: '/mcp/x/booking,shop' }))).toEqual(expected);
    expect(names(await listed({ headers: { 'X-MCP-Toolsets': 'shop, Booking' } }))).toEqual(expected);
    const client = await mcpClient(company.apiKey, { path: '/mcp/x/booking' });
    expect(await callTool(client, 'list_services')).toMatchObject({ items: expect.any(Array) });
    const refused = await toolError(client, 'list_promotions');
    expect(refused).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('promotions toolset') });
    // list_toolsets answers for the connection's own view.
    expect((await callTool(client, 'list_toolsets')).items.map((t: { name: string }) => t.name)).toEqual(['booking']);
  });

  it('read-only hides every tool that writes and refuses a write, whatever else is set', async () => {
    const reads = names(all.filter((t) => t.annotations?.readOnlyHint));
    expect(names(await listed({ path: '/mcp/readonly' }))).toEqual(reads);
    expect(names(await listed({ headers: { 'X-MCP-Readonly': 'true' } }))).toEqual(reads);
    const bookingReads = names(all.filter((t) => t.annotations?.readOnlyHint && toolsetOf.get(t.name) === 'booking'));
    expect(names(await listed({ path: '/mcp/x/booking/readonly' }))).toEqual(bookingReads);
    expect(names(await listed({ path: '/mcp/x/booking', headers: { 'X-MCP-Readonly': 'true' } }))).toEqual(bookingReads);
    const client = await mcpClient(company.apiKey, { path: '/mcp/readonly' });
    const refused = await toolError(client, 'create_service', { name: 'Cut', durationMinutes: 30, price: '20.00' });
    expect(refused).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('read-only') });
    // Through call_tool too, and nothing was written.
    const dynamic = await mcpClient(company.apiKey, { path: '/mcp/dynamic/readonly' });
    expect(await toolError(dynamic, 'call_tool', { name: 'create_service', arguments: { name: 'Cut', durationMinutes: 30, price: '20.00' } })).toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await callTool(client, 'list_services')).items).toEqual([]);
  });

  it('dynamic mode lists four tools that find, describe and call every other one', async () => {
    expect(names(await listed({ path: '/mcp/dynamic' }))).toEqual(DISCOVERY);
    expect(names(await listed({ headers: { 'X-MCP-Dynamic': 'true' } }))).toEqual(DISCOVERY);
    const client = await mcpClient(company.apiKey, { path: '/mcp/dynamic' });
    const found = await callTool(client, 'search_tools', { query: 'refund an order' });
    expect(found.items[0]).toMatchObject({ name: 'refund_order', toolset: 'orders', readOnly: false });
    expect(found.items[0].description).not.toContain('\n');
    const described = await callTool(client, 'describe_tool', { name: 'create_service' });
    expect(described).toMatchObject({
      name: 'create_service',
      toolset: 'booking',
      readOnly: false,
      inputSchema: { type: 'object', required: expect.arrayContaining(['name']) },
    });
    const created = await callTool(client, 'call_tool', {
      name: 'create_service',
      arguments: { name: 'Dynamic cut', durationMinutes: 30, price: '25.00', capacity: 1 },
    });
    expect(created).toMatchObject({ name: 'Dynamic cut', id: expect.any(String) });
    const listedServices = await callTool(client, 'call_tool', { name: 'list_services', arguments: {} });
    expect(listedServices.items.map((s: { id: string }) => s.id)).toContain(created.id);
    // The called tool's own checks hold, naming its field.
    expect(await toolError(client, 'call_tool', { name: 'create_service', arguments: { name: 'No duration', price: '25.00', capacity: 1 } })).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: { field: 'durationMinutes' },
    });
    expect(await toolError(client, 'describe_tool', { name: 'no_such_tool' })).toMatchObject({ code: 'NOT_FOUND', details: { field: 'name' } });
    expect(await toolError(client, 'search_tools', {})).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'query' } });
  });

  it('without a key the discovery tools see only the signup pair', async () => {
    const client = await mcpClient(undefined, { path: '/mcp/dynamic' });
    expect((await callTool(client, 'list_toolsets')).items).toEqual([expect.objectContaining({ name: 'account', tools: 2 })]);
    expect(await toolError(client, 'call_tool', { name: 'get_company', arguments: {} })).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('answers an unknown toolset 400 and an unknown view 404, naming them', async () => {
    const { url } = await testServer();
    const post = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${company.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const unknown = await post('/mcp/x/booking,bakery');
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.message).toContain('unknown toolset "bakery"');
    const header = await post('/mcp', { 'X-MCP-Toolsets': 'nope' });
    expect(header.status).toBe(400);
    expect((await header.json()).error.message).toContain('X-MCP-Toolsets');
    expect((await post('/mcp/everything')).status).toBe(404);
  });

  it('keeps each tools/list within its token budget', async () => {
    const encoding = getEncoding('o200k_base');
    const tokens = (tools: unknown[]) => encoding.encode(JSON.stringify({ tools })).length;
    const budgets: Record<string, number> = { dynamic: tokens(await listed({ path: '/mcp/dynamic' })) };
    for (const toolset of new Set(toolsetOf.values())) budgets[toolset] = tokens(await listed({ path: `/mcp/x/${toolset}` }));
    expect(budgets.dynamic).toBeLessThanOrEqual(DYNAMIC_BUDGET);
    const over = Object.entries(budgets).filter(([view, count]) => view !== 'dynamic' && count > TOOLSET_BUDGET);
    expect(over).toEqual([]);
  });
});
