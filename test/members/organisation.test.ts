import { describe, expect, it } from 'vitest';
import { graphql, http, lastCode, lastMessage, uniqueEmail } from '../support/client.ts';
import { bearer, signInCustomer, signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';

describe('organisation signup', () => {
  it('signs up through the MCP tools without a credential and gets a working key', async () => {
    const anonymous = await mcpClient();
    const email = uniqueEmail('mcp-owner');
    const since = Date.now();
    const request = await callTool(anonymous, 'register_organisation_request', { email, organisationName: 'Zen Yoga', industry: 'fitness', country: 'GB' });
    expect(request.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const message = await lastMessage(email, since);
    expect(message.channel).toBe('email');
    const code = /(\d{6})/.exec(message.body)![1];
    const result = await callTool(anonymous, 'register_organisation_verify', { requestId: request.requestId, code });
    expect(result.apiKey).toMatch(/^svc_mcp_[A-Za-z0-9_-]{20,}$/);
    expect(result.companyId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.loginUrl).toMatch(/\/dashboard\/login\?token=/);

    const merchant = await mcpClient(result.apiKey);
    const company = await callTool(merchant, 'get_company');
    // Another test (the README's examples) may have signed up a "Zen Yoga" first: the slug is then -2, -3 ….
    expect(company).toMatchObject({
      id: result.companyId,
      name: 'Zen Yoga',
      slug: expect.stringMatching(/^zen-yoga(-\d+)?$/),
      industry: 'fitness',
      country: 'GB',
      timeZone: 'Europe/London',
      currency: 'GBP',
      loginChannel: 'email',
    });
    // Verifying twice is refused.
    expect((await toolError(anonymous, 'register_organisation_verify', { requestId: request.requestId, code })).code).toBe('CONFLICT');
  });

  it('signs up through the REST fallbacks and validates the input', async () => {
    const bad = await http('/v6/dev/signup', { body: { email: 'nope', organisationName: 'X', industry: 'salon', country: 'DE' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('email');
    const missing = await http('/v6/dev/signup', { body: { email: uniqueEmail(), industry: 'salon', country: 'DE' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.field).toBe('organisationName');
    const country = await http('/v6/dev/signup', { body: { email: uniqueEmail(), organisationName: 'X', industry: 'salon', country: 'Atlantis' } });
    expect(country.body.error.details.field).toBe('country');

    const company = await signupCompany('Rest Studio');
    expect(company.apiKey.startsWith('svc_mcp_')).toBe(true);
    const unknown = await http('/v6/dev/verify', { body: { requestId: '01900000-0000-7000-8000-000000000000', code: '123456' } });
    expect(unknown.status).toBe(404);
    const badId = await http('/v6/dev/verify', { body: { requestId: 'x', code: '123456' } });
    expect(badId.status).toBe(400);
  });

  it('refuses wrong signup codes, then exhausts after five', async () => {
    const email = uniqueEmail('wrong-owner');
    const since = Date.now();
    const { body } = await http('/v6/dev/signup', { body: { email, organisationName: 'Wrong Co', industry: 'clinic', country: 'US' } });
    const code = await lastCode(email, since);
    const wrong = code === '999999' ? '111111' : '999999';
    for (let i = 0; i < 5; i++) expect((await http('/v6/dev/verify', { body: { requestId: body.data.requestId, code: wrong } })).status).toBe(401);
    const exhausted = await http('/v6/dev/verify', { body: { requestId: body.data.requestId, code } });
    expect(exhausted.status).toBe(429);
  });

  it('rate-limits signup codes per email', async () => {
    const email = uniqueEmail('flood');
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await http('/v6/dev/signup', { body: { email, organisationName: 'Flood', industry: 'salon', country: 'DE' } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('exchanges the one-time login link for a merchant session token that works on MCP', async () => {
    const company = await signupCompany('Link Studio');
    const token = new URL(company.loginUrl).searchParams.get('token')!;
    const exchange = `mutation($t: String!) { exchangeLoginLink(token: $t) { token expiresAt companyId } }`;
    const session = await graphql(exchange, { t: token });
    expect(session.body.data?.exchangeLoginLink.companyId).toBe(company.companyId);
    const again = await graphql(exchange, { t: token });
    expect(again.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const merchant = await mcpClient(session.body.data!.exchangeLoginLink.token);
    expect((await callTool(merchant, 'get_company')).id).toBe(company.companyId);
  });
});

describe('merchant tools', () => {
  it('creates, lists and revokes API keys; a revoked key is refused at once', async () => {
    const company = await signupCompany('Keys Studio');
    const merchant = await mcpClient(company.apiKey);
    const created = await callTool(merchant, 'create_api_key', { name: 'Zapier' });
    expect(created).toMatchObject({ name: 'Zapier', status: 'ACTIVE' });
    expect(created.key.startsWith(created.prefix)).toBe(true);

    const second = await mcpClient(created.key);
    const list = await callTool(second, 'list_api_keys');
    expect(list.pagination).toMatchObject({ page: 1, limit: 20, total: 2, totalPages: 1, hasNextPage: false });
    expect(list.items.map((k: any) => k.name)).toEqual(['Zapier', 'Signup key']);
    expect(JSON.stringify(list)).not.toContain(created.key);
    expect(list.items[0].lastUsedAt).not.toBeNull();
    const searched = await callTool(second, 'list_api_keys', { search: 'zap', limit: 1 });
    expect(searched.items).toHaveLength(1);

    const revoked = await callTool(merchant, 'revoke_api_key', { apiKeyId: created.id });
    expect(revoked).toMatchObject({ id: created.id, status: 'REVOKED' });
    expect(revoked.revokedAt).toBeTruthy();
    await expect(mcpClient(created.key)).rejects.toMatchObject({ code: 401 });
    const rest = await graphql('{ company { id } }', {}, bearer(created.key));
    expect(rest.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    // The first key still works.
    expect((await callTool(await mcpClient(company.apiKey), 'get_company')).id).toBe(company.companyId);
  });

  it("never shows or revokes another company's key", async () => {
    const a = await signupCompany('Tenant A');
    const b = await signupCompany('Tenant B');
    const keyOfB = await callTool(await mcpClient(b.apiKey), 'create_api_key', { name: 'B key' });
    const clientA = await mcpClient(a.apiKey);
    expect((await toolError(clientA, 'revoke_api_key', { apiKeyId: keyOfB.id })).code).toBe('NOT_FOUND');
    expect((await callTool(clientA, 'list_api_keys')).items.map((k: any) => k.name)).toEqual(['Signup key']);
    expect((await toolError(clientA, 'revoke_api_key', { apiKeyId: 'not-a-uuid' })).code).toBe('BAD_USER_INPUT');
    // A merchant credential naming another company is refused, never served.
    const cross = await graphql('{ company { id } }', {}, { ...bearer(a.apiKey), 'x-company-id': b.companyId });
    expect(cross.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('updates company settings and validates each one', async () => {
    const company = await signupCompany('Settings Studio');
    const merchant = await mcpClient(company.apiKey);
    const updated = await callTool(merchant, 'update_company_settings', { timeZone: 'Asia/Tokyo', currency: 'jpy', loginChannel: 'whatsapp' });
    expect(updated).toMatchObject({ timeZone: 'Asia/Tokyo', currency: 'JPY', loginChannel: 'whatsapp' });
    const channel = await http('/v6/customer-portal/auth/login-channel', { headers: { 'x-company-id': company.companyId } });
    expect(channel.body.data.channel).toBe('whatsapp');
    expect((await toolError(merchant, 'update_company_settings', { timeZone: 'Mars/Base' })).details.field).toBe('timeZone');
    expect((await toolError(merchant, 'update_company_settings', { currency: 'XXQ' })).details.field).toBe('currency');
    const badEnum = await toolError(merchant, 'update_company_settings', { loginChannel: 'pigeon' });
    expect(badEnum.message).toMatch(/loginChannel/);
    const dupField = await toolError(merchant, 'update_company_settings', {
      registrationFields: [
        { key: 'x', label: 'X', type: 'text' },
        { key: 'x', label: 'Y', type: 'text' },
      ],
    });
    expect(dupField.details.field).toBe('registrationFields[1].key');
    // Untouched settings stay.
    expect(await callTool(merchant, 'get_company')).toMatchObject({ timeZone: 'Asia/Tokyo', currency: 'JPY' });
  });

  it('adds storefront domains: the host resolves to the tenant, a taken host is 409', async () => {
    const company = await signupCompany('Domain Studio');
    const merchant = await mcpClient(company.apiKey);
    const host = `studio-${Date.now()}.example.test`;
    const domain = await callTool(merchant, 'add_storefront_domain', { domain: `https://${host.toUpperCase()}/` });
    expect(domain).toMatchObject({ domain: host, companyId: company.companyId });
    expect((await toolError(merchant, 'add_storefront_domain', { domain: host })).code).toBe('CONFLICT');
    expect((await toolError(await mcpClient((await signupCompany('Other')).apiKey), 'add_storefront_domain', { domain: host })).code).toBe('CONFLICT');
    expect((await toolError(merchant, 'add_storefront_domain', { domain: 'not a host' })).details.field).toBe('domain');
    // The platform's own and local names cannot be claimed.
    for (const reserved of ['127.0.0.1', 'localhost', 'shop.localhost'])
      expect((await toolError(merchant, 'add_storefront_domain', { domain: reserved })).details.field).toBe('domain');

    const resolved = await http(`/v6/customer-portal/storefront/resolve-domain?domain=${host}`);
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toEqual({
      companyId: company.companyId,
      name: 'Domain Studio',
      slug: 'domain-studio',
      timeZone: 'Europe/Berlin',
      currency: 'EUR',
      loginChannel: 'email',
    });
    const missing = await http('/v6/customer-portal/storefront/resolve-domain?domain=nowhere.example.test');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect((await http('/v6/customer-portal/storefront/resolve-domain')).body.error.details.field).toBe('domain');

    // Public routes take the tenant from the storefront's Host header.
    const { url } = await testServer();
    const port = new URL(url).port;
    const res = await fetch(`${url}/v6/customer-portal/auth/login-channel`, { headers: { 'x-forwarded-host': `${host}:${port}` } });
    expect((await res.json()).data.companyId).toBe(company.companyId);
    const { request } = await import('node:http');
    const viaHost = await new Promise<any>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/v6/customer-portal/auth/login-channel', headers: { host: `${host}:${port}` } }, (r) => {
        let text = '';
        r.on('data', (d) => (text += d));
        r.on('end', () => resolve(JSON.parse(text)));
      });
      req.on('error', reject);
      req.end();
    });
    expect(viaHost.data.companyId).toBe(company.companyId);
    const customer = await signInCustomer(company.companyId);
    const onOwnDomain = await fetch(`${url}/v6/customer-portal/auth/validate-token`, {
      method: 'POST',
      headers: { 'x-forwarded-host': host, authorization: `Bearer ${customer.token}` },
    });
    expect(onOwnDomain.status).toBe(200);
  });
});
