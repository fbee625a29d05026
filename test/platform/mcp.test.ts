import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signInCustomer, signupCompany } from '../support/fixtures.ts';
import { mcpClient, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';

const SIGNUP_TOOLS = ['register_organisation_request', 'register_organisation_verify'];

describe('MCP facade', () => {
  it('lists only the signup tools without a credential; another tool answers how to get a key', async () => {
    const client = await mcpClient();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(SIGNUP_TOOLS);
    const error = await toolError(client, 'get_company');
    expect(error.code).toBe('UNAUTHENTICATED');
    expect(error.message).toMatch(/get_company needs an API key/);
    expect(error.message).toMatch(/register_organisation_request/);
    expect(error.details).toMatchObject({ signupTools: SIGNUP_TOOLS, resourceMetadata: expect.stringMatching(/\/\.well-known\/oauth-protected-resource$/) });
    // A name no tool has is still unknown.
    expect(await toolError(client, 'no_such_tool')).toMatchObject({ code: 'NOT_FOUND', message: 'Tool no_such_tool not found' });
  });

  it('lists every tool for a merchant, with schemas derived from the operations', async () => {
    const company = await signupCompany('Tools Studio');
    const { tools } = await (await mcpClient(company.apiKey)).listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const files = readdirSync(join(import.meta.dirname, '../../facades/mcp/tools')).map((f) => f.replace(/\.graphql$/, ''));
    expect([...byName.keys()].sort()).toEqual(files.sort());
    for (const name of [
      'add_storefront_domain',
      'create_api_key',
      'get_company',
      'list_api_keys',
      'revoke_api_key',
      'update_company_settings',
      'create_service',
      'create_booking',
      'get_available_slots',
    ]) {
      expect(byName.has(name), name).toBe(true);
    }
    const signup = byName.get('register_organisation_request')!;
    expect(signup.description).toMatch(/verification code/);
    expect(signup.inputSchema.required?.sort()).toEqual(['country', 'email', 'industry', 'organisationName']);
    expect(signup.annotations?.readOnlyHint).toBe(false);
    expect(byName.get('list_api_keys')!.annotations?.readOnlyHint).toBe(true);
    const settings = byName.get('update_company_settings')!.inputSchema as any;
    expect(settings.required).toBeUndefined();
    // Optional arguments are plain optional properties (no null unions); a call may still send null.
    expect(settings.properties.loginChannel.enum).toEqual(['email', 'sms', 'whatsapp']);
    expect(settings.properties.loginChannel.anyOf).toBeUndefined();
    expect(settings.properties.registrationFields.items.required).toEqual(['key', 'label', 'type']);
  });

  it('validates arguments before running anything', async () => {
    const client = await mcpClient();
    const missing = await toolError(client, 'register_organisation_request', { email: 'a@b.example' });
    expect(missing.message).toMatch(/organisationName/);
    const wrongType = await toolError(client, 'register_organisation_verify', { requestId: 5, code: '123456' });
    expect(wrongType.message).toMatch(/requestId/);
    const extra = await toolError(client, 'register_organisation_verify', { requestId: 'x', code: '1', admin: true });
    expect(extra.message).toMatch(/admin/);
    // Our own validation answers with the catalogue code and the field.
    const domain = await toolError(client, 'register_organisation_request', { email: 'nope', organisationName: 'X', industry: 'y', country: 'DE' });
    expect(domain).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'email' } });
  });

  it('answers 401 with WWW-Authenticate for an invalid credential, 403 for a customer token', async () => {
    const { url } = await testServer();
    await expect(mcpClient('svc_mcp_not-a-real-key')).rejects.toMatchObject({ code: 401 });
    await expect(mcpClient('garbage.jwt.token')).rejects.toMatchObject({ code: 401 });
    const raw = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer nope', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const company = await signupCompany('Customer Tools');
    const customer = await signInCustomer(company.companyId);
    await expect(mcpClient(customer.token)).rejects.toMatchObject({ code: 403 });
    // A key names its company: X-Company-Id naming another one is refused, as on REST and GraphQL.
    const other = await signupCompany('Other Tools');
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const call = (companyId: string) =>
      fetch(`${url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${company.apiKey}`,
          'x-company-id': companyId,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(init),
      });
    const foreign = await call(other.companyId);
    expect(foreign.status).toBe(401);
    expect(await foreign.text()).toMatch(/not valid for that company/);
    expect((await call(company.companyId)).status).toBe(200);
  });

  it('refuses GET and foreign hosts (stateless server, DNS-rebinding protection)', async () => {
    const { url } = await testServer();
    const get = await fetch(`${url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    const port = new URL(url).port;
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } },
        (res) => resolve(res.statusCode!),
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });
});
