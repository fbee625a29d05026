import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createApp, type App } from '../../router/app.ts';
import { MODULES } from '../../router/modules.ts';
import { startSubgraphServer } from '../../router/subgraph-server.ts';
import { lastCode, uniqueEmail } from '../support/client.ts';
import { testServer } from '../support/server.ts';
import { freePort, waitReady } from '../support/local-servers.ts';
import { statementsOf } from '../support/sql.ts';

const databaseUrl = inject('databaseUrl');

/** The distributed topology: every subgraph as its own HTTP server, the router over HTTP. PostgreSQL only. */
describe.runIf(databaseUrl)('distributed topology', () => {
  let subgraphs: Awaited<ReturnType<typeof startSubgraphServer>>[] = [];
  let router: App;
  let url: string;
  let config: Awaited<ReturnType<typeof testServer>>['config'];

  beforeAll(async () => {
    ({ config } = await testServer());
    subgraphs = await Promise.all(MODULES.map((m) => startSubgraphServer(config, m, 0)));
    const subgraphUrls = Object.fromEntries(MODULES.map((m, i) => [m.name, subgraphs[i].url]));
    router = await createApp(config, { topology: 'distributed', subgraphUrls });
    await new Promise<void>((r) => router.server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(router.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await router?.close();
    await Promise.all(subgraphs.map((s) => s.stop()));
  });

  const call = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  };

  /** A company signed up through the router (organisation flow, code from the development outbox): its id and API key. */
  const signUp = async (label: string, organisationName: string, industry = 'spa'): Promise<{ companyId: string; apiKey: string }> => {
    const email = uniqueEmail(label);
    const since = Date.now();
    const request = await call('/v6/dev/signup', { email, organisationName, industry, country: 'FR' });
    expect(request.status).toBe(200);
    const verify = await call('/v6/dev/verify', { requestId: request.body.data.requestId, code: await lastCode(email, since) });
    expect(verify.status).toBe(200);
    return verify.body.data;
  };

  it('serves members, booking and content over HTTP with headers propagated, and joins subgraphs', async () => {
    const { companyId, apiKey } = await signUp('dist-owner', 'Distributed Spa');

    const company = await call('/graphql', { query: '{ company { id currency } }' }, { authorization: `Bearer ${apiKey}` });
    expect(company.body.data.company).toEqual({ id: companyId, currency: 'EUR' });
    const channel = await call('/v6/customer-portal/auth/login-channel', undefined, { 'x-company-id': companyId });
    expect(channel.body.data.channel).toBe('email');

    const customerEmail = uniqueEmail('dist-customer');
    const sent = Date.now();
    await call('/v6/customer-portal/auth/otp', { email: customerEmail }, { 'x-company-id': companyId });
    const session = await call(
      '/v6/customer-portal/auth/otp/verify',
      { email: customerEmail, code: await lastCode(customerEmail, sent) },
      { 'x-company-id': companyId },
    );
    expect(session.status).toBe(200);
    const valid = await call('/v6/customer-portal/auth/validate-token', {}, { authorization: `Bearer ${session.body.data.token}` });
    expect(valid.body.data.customer.email).toBe(customerEmail);
    const unknown = await call('/v6/customer-portal/auth/login-channel', undefined, { 'x-company-id': '01900000-0000-7000-8000-000000000000' });
    expect(unknown.status).toBe(404);

    // Booking and content over HTTP, and a query joining members and booking.
    const merchant = { authorization: `Bearer ${apiKey}` };
    const gql = async (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = merchant) => {
      const res = await call('/graphql', { query, variables }, headers);
      if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
      return res.body.data;
    };
    const { createStaffMember } = await gql('mutation { createStaffMember(input: { name: "Dina" }) { id } }');
    for (let d = 0; d < 7; d++)
      await gql('mutation($m: ID!, $d: Int) { setStaffAvailability(input: { memberId: $m, dayOfWeek: $d, startTime: "09:00", endTime: "17:00" }) { id } }', {
        m: createStaffMember.id,
        d,
      });
    const { createService } = await gql(
      'mutation($s: [ID!]) { createService(input: { name: "Facial", durationMinutes: 60, price: "70", capacity: 1, staffIds: $s, minimumNoticeMinutes: 0 }) { id } }',
      { s: [createStaffMember.id] },
    );
    const day = new Date(Date.now() + 4 * 86400000).toISOString().slice(0, 10);
    const slots = await call(`/v6/customer-portal/services/${createService.id}/slots?date=${day}`, undefined, { 'x-company-id': companyId });
    const slot = slots.body.data.items[0];
    const booked = await call(
      '/v6/customer-portal/bookings/guest',
      { serviceId: createService.id, occurrenceStart: slot.start, occurrenceEnd: slot.end, customerName: 'Cy', customerPhone: '+15550001234' },
      { 'x-company-id': companyId, authorization: `Bearer ${session.body.data.token}` },
    );
    expect(booked.status).toBe(201);
    const joined = await gql('{ currentCustomer { email bookings { id service { name } } } }', {}, { authorization: `Bearer ${session.body.data.token}` });
    expect(joined.currentCustomer).toEqual({ email: customerEmail, bookings: [{ id: booked.body.data.id, service: { name: 'Facial' } }] });
    await gql('mutation { createPost(input: { title: "Over the wire", status: published }) { id } }');
    const posts = await call('/v6/customer-portal/cms/posts', undefined, { 'x-company-id': companyId });
    expect(posts.body.data.items.map((p: any) => p.slug)).toEqual(['over-the-wire']);
  });

  it('sells through the commerce subgraph process: a checkout, the sandbox page and webhooks forwarded to it', async () => {
    const { companyId, apiKey } = await signUp('dist-shop', 'Distributed Shop', 'retail');
    const created = await call(
      '/graphql',
      { query: 'mutation { createProduct(input: { name: "Mug", price: "12.50", status: active, trackInventory: true, stock: 2 }) { id } }' },
      { authorization: `Bearer ${apiKey}` },
    );
    expect(created.body.errors).toBeUndefined();
    const h = { 'x-company-id': companyId };
    const listed = await call('/v6/customer-portal/shop/products', undefined, h);
    expect(listed.body.data.items).toMatchObject([{ name: 'Mug', stockStatus: 'LOW_STOCK', price: { amount: '12.50', currency: 'EUR' } }]);
    const order = await call(
      '/v6/customer-portal/shop/orders',
      {
        items: [{ productId: created.body.data.createProduct.id, quantity: 2 }],
        customer: { name: 'Dee', email: uniqueEmail('dist-buyer') },
        paymentMethodId: 'sandbox',
      },
      h,
    );
    expect(order.status).toBe(201);
    expect(order.body.data).toMatchObject({ status: 'PENDING_PAYMENT', total: { amount: '25.00', currency: 'EUR' } });
    // The hosted page is commerce's route: the router forwards it to the commerce process.
    const page = new URL(order.body.data.payment.nextAction.redirectUrl);
    const html = await (await fetch(`${url}${page.pathname}`)).text();
    expect(html).toContain('25.00 EUR');
    const pressed = await fetch(`${url}${page.pathname}`, { method: 'POST', body: new URLSearchParams({ action: 'pay' }), redirect: 'manual' });
    expect(pressed.status).toBe(200);
    const status = await call(
      `/v6/customer-portal/shop/orders/${order.body.data.id}/payment-status?accessToken=${encodeURIComponent(order.body.data.accessToken)}`,
      undefined,
      h,
    );
    expect(status.body.data).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'succeeded' });
    // A webhook with a bad signature reaches commerce's check through the router.
    const webhook = await fetch(`${url}/webhooks/payments/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sandbox-signature': 't=1,v1=00' },
      body: '{}',
    });
    expect(webhook.status).toBe(400);
    expect((await fetch(`${url}/webhooks/payments/nope`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('answers a one-subgraph query straight from the subgraph process (the fast path), as the plan would, and the rest through the plan', async () => {
    const { companyId, apiKey } = await signUp('dist-direct', 'Direct Spa');
    await call(
      '/graphql',
      { query: 'mutation { createService(input: { name: "Steam", durationMinutes: 20, price: "15" }) { id } }' },
      { authorization: `Bearer ${apiKey}` },
    );
    const services = 'query services($limit: Int) { services(limit: $limit) { items { name price { amount currency } } pagination { total } } }';
    let n = 0;
    const both = async (body: unknown, headers: Record<string, string> = {}) => {
      const init = () => ({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-company-id': companyId, 'x-request-id': `dist-direct-${++n}`, ...headers },
        body: JSON.stringify(body),
      });
      const before = router.gateway.fastPath.served;
      const routed = await fetch(`${url}/graphql`, init());
      const routedText = await routed.text();
      const served = router.gateway.fastPath.served - before === 1;
      const alone = await withoutFastPath(() => fetch(`${url}/graphql`, init()));
      return {
        served,
        routed: { status: routed.status, type: routed.headers.get('content-type'), body: routedText.replace(/dist-direct-\d+/g, '') },
        gateway: { status: alone.status, type: alone.headers.get('content-type'), body: (await alone.text()).replace(/dist-direct-\d+/g, '') },
      };
    };
    const listed = await both({ query: services, variables: { limit: 10 } }, { accept: 'application/graphql-response+json' });
    expect(listed.served).toBe(true);
    expect(listed.routed).toEqual(listed.gateway);
    expect(JSON.parse(listed.routed.body).data.services).toEqual({
      items: [{ name: 'Steam', price: { amount: '15.00', currency: 'EUR' } }],
      pagination: { total: 1 },
    });
    // An error from the subgraph process: answered by the gateway, with its own error handling.
    const missing = await both({ query: '{ service(id: "00000000-0000-0000-0000-000000000000") { id } }' });
    expect(missing.served).toBe(false);
    expect(missing.routed).toEqual(missing.gateway);
    expect(JSON.parse(missing.routed.body).errors[0].extensions.code).toBe('NOT_FOUND');
    // ... from the answer the fast path got: the subgraph is not asked twice.
    const ask = () => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-company-id': companyId },
      body: JSON.stringify({ query: '{ service(id: "00000000-0000-0000-0000-000000000000") { id } }' }),
    });
    const alone = await withoutFastPath(() => statementsOf(() => fetch(`${url}/graphql`, ask())));
    expect(alone.length).toBeGreaterThan(0);
    expect(await statementsOf(() => fetch(`${url}/graphql`, ask()))).toEqual(alone);
    // Identical requests in flight share one execution; each still gets the whole answer.
    const before = router.gateway.fastPath.served;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('/graphql', { query: services, variables: { limit: 10 } }, { 'x-company-id': companyId })),
    );
    // Executed fewer times than sent (the gateway's inbound deduplication), each by the fast path.
    const executed = router.gateway.fastPath.served - before;
    expect(executed).toBeGreaterThan(0);
    expect(executed).toBeLessThanOrEqual(20);
    for (const answer of answers) expect(answer.body).toEqual(JSON.parse(listed.routed.body));
    // ... asked of the subgraph fewer times than they were sent (once, when they all arrive while it answers).
    const list = () => call('/graphql', { query: services, variables: { limit: 11 } }, { 'x-company-id': companyId });
    const once = await statementsOf(list);
    const together = await statementsOf(() => Promise.all(Array.from({ length: 20 }, list)));
    expect(once.length).toBeGreaterThan(0);
    expect(together.length).toBeLessThan(20 * once.length);
  });

  async function withoutFastPath<T>(run: () => Promise<T>): Promise<T> {
    router.gateway.fastPath.enabled = false;
    try {
      return await run();
    } finally {
      router.gateway.fastPath.enabled = true;
    }
  }

  it('runs as `npm run start:router`: the built router alone over the subgraph processes, under its own V8 flags', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const script: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts['start:router'];
    const [, ...flags] = script.replace(/ scripts\/launch\.mjs router$/, '').split(' ');
    const start = (env: NodeJS.ProcessEnv) => {
      const child = spawn(process.execPath, [...flags, join(root, 'scripts/launch.mjs'), 'router'], { cwd: root, env: { ...process.env, ...env } });
      let output = '';
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      return { child, output: () => output, exited: new Promise<number | null>((r) => child.on('exit', (code) => r(code))) };
    };

    // Another topology named is refused, not quietly run under the router's flags.
    const refused = start({ TOPOLOGY: 'embedded' });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/start:router runs the router over subgraph processes \(TOPOLOGY=distributed\), not TOPOLOGY=embedded/);

    const { companyId, apiKey } = await signUp('dist-router', 'Router Alone Spa');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const subgraphUrls = Object.fromEntries(MODULES.map((m, i) => [`SUBGRAPH_${m.name.toUpperCase()}_URL`, subgraphs[i].url]));
    const alone = start({
      ...subgraphUrls,
      TOPOLOGY: '',
      DATABASE_URL: config.databaseUrl,
      JWT_SECRET: config.jwtSecret,
      PORT: String(port),
      PUBLIC_URL: base,
      NODE_ENV: 'development',
      OUTBOX_LOG: 'silent',
    });
    try {
      await waitReady(port);
      expect((await (await fetch(`${base}/readyz`)).json()).topology).toBe('distributed');
      const company = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ query: '{ company { id name } }' }),
      });
      expect((await company.json()).data.company).toEqual({ id: companyId, name: 'Router Alone Spa' });
      // What the subgraph processes hold, through this router and no other.
      const staff = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ query: 'mutation { createStaffMember(input: { name: "Eli" }) { id name } }' }),
      });
      const created = (await staff.json()).data.createStaffMember;
      expect(created.name).toBe('Eli');
      const listed = await call('/graphql', { query: '{ staffMembers { items { id name } } }' }, { authorization: `Bearer ${apiKey}` });
      expect(listed.body.data.staffMembers.items).toEqual([created]);
    } finally {
      alone.child.kill('SIGTERM');
      await alone.exited;
    }
  });

  it('answers a variable that does not coerce with 400 naming the field, as the embedded topology does', async () => {
    const headers = { 'x-company-id': (await signUp('dist-coerce', 'Coercion Spa')).companyId };
    const gql = await call(
      '/graphql',
      {
        query: 'mutation($input: RegisterCustomerInput!) { registerCustomer(input: $input) { token } }',
        variables: { input: { name: 'Obj', email: uniqueEmail(), attributes: 'abc' } },
      },
      headers,
    );
    expect(gql.status).toBe(400);
    expect(gql.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(JSON.stringify(gql.body)).not.toMatch(/"abc"/);
  });
});
