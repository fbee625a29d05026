import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createApp, type App } from '../../router/app.ts';
import { moduleNamed } from '../../router/modules.ts';
import { startSubgraphServer } from '../../router/subgraph-server.ts';
import { lastCode, uniqueEmail } from '../support/client.ts';
import { testServer } from '../support/server.ts';

const databaseUrl = inject('databaseUrl');

/** The distributed topology: the members subgraph as an HTTP server, the router over HTTP. PostgreSQL only. */
describe.runIf(databaseUrl)('distributed topology', () => {
  let subgraph: Awaited<ReturnType<typeof startSubgraphServer>>;
  let router: App;
  let url: string;

  beforeAll(async () => {
    const { config } = await testServer();
    subgraph = await startSubgraphServer(config, moduleNamed('members'), 0 as number);
    router = await createApp(config, { topology: 'distributed', subgraphUrls: { members: subgraph.url.replace('0.0.0.0', '127.0.0.1') } });
    await new Promise<void>((r) => router.server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(router.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await router?.close();
    await subgraph?.stop();
  });

  const call = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, { method: body ? 'POST' : 'GET', headers: { 'content-type': 'application/json', ...headers }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, body: await res.json() };
  };

  it('serves signup, sign-in and merchant GraphQL with headers propagated to the subgraph', async () => {
    const email = uniqueEmail('dist-owner');
    const since = Date.now();
    const request = await call('/v6/dev/signup', { email, organisationName: 'Distributed Spa', industry: 'spa', country: 'FR' });
    expect(request.status).toBe(200);
    const verify = await call('/v6/dev/verify', { requestId: request.body.data.requestId, code: await lastCode(email, since) });
    expect(verify.status).toBe(200);
    const { companyId, apiKey } = verify.body.data;

    const company = await call('/graphql', { query: '{ company { id currency } }' }, { authorization: `Bearer ${apiKey}` });
    expect(company.body.data.company).toEqual({ id: companyId, currency: 'EUR' });
    const channel = await call('/v6/customer-portal/auth/login-channel', undefined, { 'x-company-id': companyId });
    expect(channel.body.data.channel).toBe('email');

    const customerEmail = uniqueEmail('dist-customer');
    const sent = Date.now();
    await call('/v6/customer-portal/auth/otp', { email: customerEmail }, { 'x-company-id': companyId });
    const session = await call('/v6/customer-portal/auth/otp/verify', { email: customerEmail, code: await lastCode(customerEmail, sent) }, { 'x-company-id': companyId });
    expect(session.status).toBe(200);
    const valid = await call('/v6/customer-portal/auth/validate-token', {}, { authorization: `Bearer ${session.body.data.token}` });
    expect(valid.body.data.customer.email).toBe(customerEmail);
    const unknown = await call('/v6/customer-portal/auth/login-channel', undefined, { 'x-company-id': '01900000-0000-7000-8000-000000000000' });
    expect(unknown.status).toBe(404);
  });
});
