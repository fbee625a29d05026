import { beforeAll, describe, expect, it } from 'vitest';
import { toolsetOf } from '../../subgraphs/kernel/access.ts';
import { TOOLSET_NAMES } from '../../subgraphs/kernel/toolsets.ts';
import { graphql, http } from '../support/client.ts';
import { signupCompany, type Company } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';

let company: Company;
/** Every merchant tool's toolset and whether it only reads, from an unrestricted key's dynamic view. */
const tools = new Map<string, { toolset: string; readOnly: boolean }>();

const keyWith = async (settings: Record<string, unknown>) =>
  (await callTool(await mcpClient(company.apiKey), 'create_api_key', { name: 'Scoped', ...settings })) as { key: string; scopes: string[] };
const listedNames = async (key: string, path = '/mcp') => (await (await mcpClient(key, { path })).listTools()).tools.map((t) => t.name).sort();
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

beforeAll(async () => {
  company = await signupCompany('Scopes Studio');
  const dynamic = await mcpClient(company.apiKey, { path: '/mcp/dynamic' });
  for (const toolset of TOOLSET_NAMES) {
    for (const t of (await callTool(dynamic, 'search_tools', { query: toolset, toolset, limit: 50 })).items)
      tools.set(t.name, { toolset: t.toolset, readOnly: t.readOnly });
  }
});

describe('scoped API keys', () => {
  it('every root field of the schema declares its toolset, and so the scope it needs', async () => {
    const introspected = await graphql<{ __schema: Record<'queryType' | 'mutationType', { fields: { name: string }[] }> }>(
      '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }',
    );
    const { queryType, mutationType } = introspected.body.data!.__schema;
    const fields = [...queryType.fields, ...mutationType.fields].map((f) => f.name);
    expect(fields.length).toBeGreaterThan(150);
    const undeclared = fields.filter((field) => {
      try {
        return !TOOLSET_NAMES.includes(toolsetOf(field));
      } catch {
        return true;
      }
    });
    expect(undeclared).toEqual([]);
  });

  it('a key with one read scope lists and calls exactly that toolset’s read tools', async () => {
    const { key, scopes } = await keyWith({ scopes: ['booking:read'] });
    expect(scopes).toEqual(['booking:read']);
    const expected = [...tools].filter(([, t]) => t.toolset === 'booking' && t.readOnly).map(([name]) => name);
    expect(await listedNames(key)).toEqual(expected.sort());
    const client = await mcpClient(key);
    expect(await callTool(client, 'list_services')).toMatchObject({ items: [] });
    // A write of its toolset, and a read of another: 403 INSUFFICIENT_SCOPE naming the scope, on every interface.
    expect(await toolError(client, 'create_service', { name: 'Cut', durationMinutes: 30, price: '20.00', capacity: 1 })).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required: 'booking:write' },
    });
    expect(await toolError(client, 'list_promotions')).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'promotions:read' } });
    const rest = await http('/v6/merchant/services', {
      method: 'POST',
      headers: bearer(key),
      body: { name: 'Cut', durationMinutes: 30, price: '20.00', capacity: 1 },
    });
    expect(rest.status).toBe(403);
    expect(rest.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'booking:write' } });
    expect((await http('/v6/merchant/services', { headers: bearer(key) })).status).toBe(200);
    const gql = await graphql('{ promotions { items { id } } }', {}, bearer(key));
    expect(gql.body.errors?.[0].extensions).toMatchObject({ code: 'INSUFFICIENT_SCOPE', required: 'promotions:read' });
  });

  it('write implies read; a key cannot create a key with scopes it does not have', async () => {
    const { key } = await keyWith({ scopes: ['booking:write', 'account:write'] });
    const listed = await listedNames(key);
    expect(listed).toEqual(expect.arrayContaining(['list_services', 'create_service', 'create_api_key']));
    expect(listed.every((name) => ['booking', 'account'].includes(tools.get(name)!.toolset))).toBe(true);
    const client = await mcpClient(key);
    expect(await toolError(client, 'create_api_key', { name: 'Wider', scopes: ['*'] })).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { field: 'scopes', required: ['*'] },
    });
    expect(await toolError(client, 'create_api_key', { name: 'Wider' })).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    const narrower = await callTool(client, 'create_api_key', { name: 'Narrower', scopes: ['booking:read'] });
    expect(narrower.scopes).toEqual(['booking:read']);
    // list_api_keys shows every key's scopes; keys made before scopes existed have "*".
    const { items } = await callTool(await mcpClient(company.apiKey), 'list_api_keys', { limit: 100 });
    expect(items.find((k: { name: string }) => k.name === 'Narrower')).toMatchObject({ scopes: ['booking:read'], toolsets: null, readOnly: false });
    expect(items.find((k: { name: string }) => k.name === 'Signup key')).toMatchObject({ scopes: ['*'] });
    expect(await toolError(await mcpClient(company.apiKey), 'create_api_key', { name: 'Bad', scopes: ['bakery:read'] })).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: { field: 'scopes[0]' },
    });
  });

  it('a key’s default toolsets and read-only shape its MCP connections; the address still narrows', async () => {
    const { key } = await keyWith({ toolsets: ['booking'], readOnly: true });
    const bookingReads = [...tools].filter(([, t]) => t.toolset === 'booking' && t.readOnly).map(([name]) => name);
    expect(await listedNames(key)).toEqual(bookingReads.sort());
    // Another toolset by address; read-only stays whatever the connection asks.
    const shopReads = [...tools].filter(([, t]) => t.toolset === 'shop' && t.readOnly).map(([name]) => name);
    expect(await listedNames(key, '/mcp/x/shop')).toEqual(shopReads.sort());
    expect(
      await toolError(await mcpClient(key, { path: '/mcp/x/booking' }), 'create_service', { name: 'Cut', durationMinutes: 30, price: '20.00', capacity: 1 }),
    ).toMatchObject({
      code: 'FORBIDDEN',
    });
    // The same key over REST: its MCP defaults do not narrow a route (its scopes, "*", allow it).
    const rest = await http('/v6/merchant/services', {
      method: 'POST',
      headers: bearer(key),
      body: { name: 'Rest cut', durationMinutes: 30, price: '20.00', capacity: 1 },
    });
    expect(rest.status).toBe(201);
  });
});
