import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { LEGACY_ROUTES } from '../../facades/rest/legacy.ts';
import { dayFromNow, setupSalon, type Salon } from '../support/booking.ts';
import { http, uniqueEmail } from '../support/client.ts';
import { bearer, signInCustomer, signupCompany } from '../support/fixtures.ts';
import { freePort, startServerProcess, waitReady } from '../support/local-servers.ts';
import { callTool, mcpClient } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';

/** The contract's legacy /connect/v1 routes (issue 15): served in the legacy shape until their sunset, counted. */
describe('legacy /connect/v1 routes', () => {
  let salon: Salon;
  let merchant: Client;
  let tenant: Record<string, string>;
  let customer: { token: string; customerId: string; email: string };
  let bookingId: string;
  let base: string;

  beforeAll(async () => {
    base = (await testServer()).url;
    salon = await setupSalon();
    merchant = salon.merchant;
    tenant = { 'x-company-id': salon.company.companyId };
    await callTool(merchant, 'create_page', { title: 'About us', status: 'published', blocks: [{ type: 'paragraph', data: { text: 'Since 1999' } }] });
    const post = await callTool(merchant, 'create_post', { title: 'Autumn news', blocks: [{ type: 'paragraph', data: { text: 'New colours' } }] });
    await callTool(merchant, 'update_post', { postId: post.id, status: 'published' });
    await callTool(merchant, 'create_category', { name: 'News' });
    await callTool(merchant, 'create_event', {
      title: 'Open day',
      startsAt: '2031-01-01T10:00:00Z',
      endsAt: '2031-01-01T12:00:00Z',
      capacity: 10,
      status: 'published',
    });
    customer = await signInCustomer(salon.company.companyId);
    const slots = (await http(`/v6/customer-portal/services/${salon.service.id}/slots?date=${dayFromNow(4)}`, { headers: tenant })).body.data.items;
    const booked = await http('/v6/customer-portal/bookings/guest', {
      body: { serviceId: salon.service.id, occurrenceStart: slots[0].start, occurrenceEnd: slots[0].end, customerName: 'Lee', customerPhone: '+4915112345678' },
      headers: { ...tenant, ...bearer(customer.token) },
    });
    expect(booked.status).toBe(201);
    bookingId = booked.body.data.id;
  }, 120_000);

  /** Each read route beside its v6 successor: the legacy answer is the v6 data without the envelope. */
  const reads = () => [
    { legacy: '/connect/v1/pages/', v6: '/v6/customer-portal/cms/pages', list: true },
    { legacy: '/connect/v1/pages/about-us/', v6: '/v6/customer-portal/cms/pages/about-us' },
    { legacy: '/connect/v1/blog/posts/', v6: '/v6/customer-portal/cms/posts', list: true },
    { legacy: '/connect/v1/blog/posts/autumn-news/', v6: '/v6/customer-portal/cms/posts/autumn-news' },
    { legacy: '/connect/v1/blog/categories/', v6: '/v6/customer-portal/cms/categories', list: true },
    { legacy: '/connect/v1/events/', v6: '/v6/customer-portal/events', list: true },
    { legacy: '/connect/v1/events/open-day/', v6: '/v6/customer-portal/events/open-day' },
    { legacy: '/connect/v1/booking-records/', v6: '/v6/customer-portal/bookings', list: true, customer: true },
    { legacy: `/connect/v1/booking-records/${bookingId}/`, v6: `/v6/customer-portal/bookings/${bookingId}`, customer: true },
  ];

  it('answers each read as its v6 successor does, without the envelope, with and without the trailing slash', async () => {
    for (const route of reads()) {
      const headers = { ...tenant, ...(route.customer ? bearer(customer.token) : {}) };
      const v6 = await http(route.v6, { headers });
      expect(v6.status, route.v6).toBe(200);
      for (const path of [route.legacy, route.legacy.replace(/\/$/, '')]) {
        const legacy = await http(path, { headers });
        expect(legacy.status, path).toBe(200);
        if (route.list) {
          expect(legacy.body, path).toEqual(v6.body.data.items);
          expect(legacy.body.length, path).toBeGreaterThan(0);
          expect(legacy.headers.get('x-total-count')).toBe(String(v6.body.data.pagination.total));
        } else {
          expect(legacy.body, path).toEqual(v6.body.data);
        }
        expect(legacy.headers.get('link')).toContain(`<${base}${route.v6}>; rel="successor-version"`);
      }
    }
  });

  it('marks every answer deprecated with a sunset 180 days later, errors included', async () => {
    const { config } = await testServer();
    for (const [path, headers] of [
      ['/connect/v1/pages/', tenant],
      ['/connect/v1/pages/no-such-page/', tenant],
      ['/connect/v1/booking-records/', tenant],
      ['/connect/v1/nothing-here/', tenant],
    ] as const) {
      const res = await http(path, { headers });
      expect(res.headers.get('deprecation'), path).toBe(`@${Math.floor(config.legacy.deprecatedAt.getTime() / 1000)}`);
      expect(res.headers.get('sunset'), path).toBe(config.legacy.sunsetAt.toUTCString());
      expect(res.headers.get('link'), path).toContain(`<${base}/docs/legacy.md>; rel="deprecation"`);
    }
    expect(config.legacy.sunsetAt.getTime() - config.legacy.deprecatedAt.getTime()).toBe(180 * 24 * 3600 * 1000);
    // Errors keep the v6 error body, without the envelope, and name the request.
    const missing = await http('/connect/v1/pages/no-such-page/', { headers: tenant });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: expect.objectContaining({ code: 'NOT_FOUND', requestId: expect.any(String) }) });
    const anonymous = await http('/connect/v1/booking-records/', { headers: tenant });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
    expect((await http('/connect/v1/nothing-here/')).status).toBe(404);
    const wrongMethod = await http('/connect/v1/pages/', { method: 'DELETE', headers: tenant });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });

  it('registers a member: the member at the top level with its token', async () => {
    const email = uniqueEmail('legacy-member');
    const res = await http('/connect/v1/members/register/', { body: { name: 'Kim', email }, headers: tenant });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(String), name: 'Kim', email, token: expect.any(String) });
    expect(res.headers.get('link')).toContain(`<${base}/v6/customer-portal/auth/register>; rel="successor-version"`);
    expect((await http('/v6/customer-portal/auth/validate-token', { method: 'POST', headers: { ...tenant, ...bearer(res.body.token) } })).status).toBe(200);
    const bad = await http('/connect/v1/members/register', { body: { name: 'Kim', email: 'not-an-email' }, headers: tenant });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('email');
  });

  it('member token: minted with a merchant key (adapter), validated or refreshed with the member’s own token', async () => {
    const path = `/connect/v1/members/${customer.customerId}/token/`;
    const minted = await http(path, { method: 'POST', headers: bearer(salon.company.apiKey) });
    expect(minted.status, JSON.stringify(minted.body)).toBe(200);
    expect(minted.body).toMatchObject({ token: expect.any(String), customer: { id: customer.customerId } });
    // A merchant write like any other: in the audit log, under the legacy route it came through.
    const audit = await callTool(merchant, 'list_audit_log', { operation: 'issueCustomerToken' });
    expect(audit.items[0]).toMatchObject({
      interface: 'rest',
      via: 'POST /connect/v1/members/{member_uuid}/token/',
      outcome: 'ok',
      targetId: customer.customerId,
    });
    const validated = await http(path, { body: { action: 'validate' }, headers: { ...tenant, ...bearer(minted.body.token) } });
    expect(validated.status, JSON.stringify(validated.body)).toBe(200);
    expect(validated.body).toMatchObject({ valid: true, customer: { id: customer.customerId } });
    const refreshed = await http(path, { method: 'POST', headers: { ...tenant, ...bearer(minted.body.token) } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.token).not.toBe(minted.body.token);
    // The refreshed session replaced the minted one.
    expect((await http(path, { body: { action: 'validate' }, headers: { ...tenant, ...bearer(minted.body.token) } })).status).toBe(401);

    // Never on a public route, never for another member, never another company's member.
    expect((await http(path, { method: 'POST', headers: tenant })).status).toBe(401);
    const other = await signInCustomer(salon.company.companyId);
    const foreign = await http(path, { method: 'POST', headers: { ...tenant, ...bearer(other.token) } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.details.field).toBe('member_uuid');
    const stranger = await signupCompany('Legacy Stranger');
    expect((await http(path, { method: 'POST', headers: bearer(stranger.apiKey) })).status).toBe(404);
    const garbage = await http('/connect/v1/members/not-a-uuid/token/', { method: 'POST', headers: bearer(salon.company.apiKey) });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.details.field).toBe('customerId');
  });

  it('member search: exact email or phone, merchant key only', async () => {
    const found = await http(`/connect/v1/members/search/?email=${encodeURIComponent(customer.email.toUpperCase())}`, {
      headers: bearer(salon.company.apiKey),
    });
    expect(found.status).toBe(200);
    expect(found.body.map((m: any) => m.id)).toEqual([customer.customerId]);
    const partial = await http(`/connect/v1/members/search/?email=${encodeURIComponent(customer.email.slice(0, 8))}`, {
      headers: bearer(salon.company.apiKey),
    });
    expect(partial.status).toBe(400);
    expect(partial.body.error.details.field).toBe('email');
    const none = await http(`/connect/v1/members/search/?email=nobody%40example.test`, { headers: bearer(salon.company.apiKey) });
    expect(none.body).toEqual([]);
    expect((await http('/connect/v1/members/search/', { headers: bearer(salon.company.apiKey) })).status).toBe(400);
    expect((await http(`/connect/v1/members/search/?email=${encodeURIComponent(customer.email)}`, { headers: tenant })).status).toBe(401);
    expect(
      (await http(`/connect/v1/members/search/?email=${encodeURIComponent(customer.email)}`, { headers: { ...tenant, ...bearer(customer.token) } })).status,
    ).toBe(403);
    const stranger = await signupCompany('Legacy Searcher');
    expect((await http(`/connect/v1/members/search/?email=${encodeURIComponent(customer.email)}`, { headers: bearer(stranger.apiKey) })).body).toEqual([]);
  });

  it('reward transactions become loyalty ADJUST entries, once per Idempotency-Key, merchant key only', async () => {
    const member = await signInCustomer(salon.company.companyId);
    const send = (body: unknown, headers: Record<string, string> = bearer(salon.company.apiKey)) =>
      http('/connect/v1/members/reward-transactions/', { body, headers });
    const first = await send(
      { member_uuid: member.customerId, points: 40, reason: 'Migrated balance' },
      { ...bearer(salon.company.apiKey), 'idempotency-key': 'legacy-reward-1' },
    );
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ type: 'ADJUST', points: 40, balanceAfter: 40 });
    const replay = await send(
      { member_uuid: member.customerId, points: 40, reason: 'Migrated balance' },
      { ...bearer(salon.company.apiKey), 'idempotency-key': 'legacy-reward-1' },
    );
    expect(replay.body.id).toBe(first.body.id);
    const taken = await send({ member_uuid: member.customerId, points: -15, reason: 'Correction' });
    expect(taken.body.balanceAfter).toBe(25);
    expect((await callTool(merchant, 'get_customer_loyalty', { customerId: member.customerId })).balance).toBe(25);
    expect(first.headers.get('link')).toContain(`<${base}/v6/merchant/loyalty/customers/{customerId}/adjustments>; rel="successor-version"`);

    const overdraw = await send({ member_uuid: member.customerId, points: -1000, reason: 'Too much' });
    expect(overdraw.status).toBe(409);
    const noMember = await send({ points: 5, reason: 'x' });
    expect(noMember.status).toBe(400);
    expect(noMember.body.error.details.field).toBe('member_uuid');
    const badMember = await send({ member_uuid: 'nope', points: 5, reason: 'x' });
    expect(badMember.status).toBe(400);
    expect(badMember.body.error.details.field).toBe('member_uuid');
    const badPoints = await send({ member_uuid: member.customerId, points: 'many', reason: 'x' });
    expect(badPoints.status).toBe(400);
    expect(badPoints.body.error.details.field).toBe('points');
    const notJson = await http('/connect/v1/members/reward-transactions/', { raw: '[1,2]', headers: bearer(salon.company.apiKey) });
    expect(notJson.status).toBe(400);
    expect((await send({ member_uuid: member.customerId, points: 5, reason: 'x' }, tenant)).status).toBe(401);
    expect((await send({ member_uuid: member.customerId, points: 5, reason: 'x' }, { ...tenant, ...bearer(member.token) })).status).toBe(403);
    expect((await callTool(merchant, 'get_customer_loyalty', { customerId: member.customerId })).balance).toBe(25);
  });

  it('counts calls per route and company, exactly under concurrent calls, for the merchant only', async () => {
    const company = await signupCompany('Legacy Counter');
    const owner = await mcpClient(company.apiKey);
    const before = await callTool(owner, 'get_legacy_usage');
    expect(before.routes).toEqual([]);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        http(i % 2 ? '/connect/v1/blog/posts/' : '/connect/v1/blog/posts', { headers: { 'x-company-id': company.companyId } }),
      ),
    );
    await http('/connect/v1/pages/missing/', { headers: { 'x-company-id': company.companyId } });
    const usage = await callTool(owner, 'get_legacy_usage');
    expect(usage.routes.map((r: any) => [r.route, r.calls])).toEqual([
      ['GET /connect/v1/blog/posts/', 20],
      ['GET /connect/v1/pages/{slug}/', 1],
    ]);
    expect(new Date(usage.sunsetAt).getTime() - new Date(usage.deprecatedAt).getTime()).toBe(180 * 24 * 3600 * 1000);
    // The merchant REST face of the tool, and no other company's counts in it.
    const rest = await http('/v6/merchant/legacy-usage', { headers: bearer(company.apiKey) });
    expect(rest.body.data).toEqual(usage);
    const salonUsage = await callTool(merchant, 'get_legacy_usage');
    expect(salonUsage.routes.find((r: any) => r.route === 'GET /connect/v1/blog/posts/')?.calls ?? 0).toBeLessThan(20);
    expect((await http('/v6/merchant/legacy-usage', { headers: { 'x-company-id': company.companyId } })).status).toBe(401);
    const asCustomer = await http('/v6/merchant/legacy-usage', { headers: { ...tenant, ...bearer(customer.token) } });
    expect([asCustomer.status, asCustomer.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });

  it('lists every route of the contract’s mapping table', () => {
    expect(LEGACY_ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      [
        'GET /connect/v1/pages/',
        'GET /connect/v1/pages/{slug}/',
        'GET /connect/v1/blog/posts/',
        'GET /connect/v1/blog/posts/{slug}/',
        'GET /connect/v1/blog/categories/',
        'POST /connect/v1/members/register/',
        'POST /connect/v1/members/{member_uuid}/token/',
        'GET /connect/v1/members/search/',
        'POST /connect/v1/members/reward-transactions/',
        'GET /connect/v1/events/',
        'GET /connect/v1/events/{slug}/',
        'GET /connect/v1/booking-records/',
        'GET /connect/v1/booking-records/{booking_uuid}/',
      ].sort(),
    );
  });
});

/** After the sunset (a server started with LEGACY_SUNSET_DATE in the past): 410 naming the successor. */
describe.runIf(!inject('databaseUrl'))('legacy routes after their sunset', () => {
  it('answer 410 GONE with the successor, still marked deprecated', async () => {
    const port = await freePort();
    const { child, exited } = startServerProcess(join(mkdtempSync(join(tmpdir(), 'legacy-sunset-')), 'data'), port, {
      LEGACY_DEPRECATION_DATE: '2025-01-01T00:00:00Z',
      LEGACY_SUNSET_DATE: '2025-07-01T00:00:00Z',
    });
    try {
      await waitReady(port);
      const res = await fetch(`http://127.0.0.1:${port}/connect/v1/blog/posts/hello/`, { headers: { 'x-forwarded-host': 'localhost' } });
      expect(res.status).toBe(410);
      expect(await res.json()).toEqual({
        error: expect.objectContaining({
          code: 'GONE',
          details: { sunsetAt: '2025-07-01T00:00:00.000Z', successor: 'GET /v6/customer-portal/cms/posts/hello' },
        }),
      });
      expect(res.headers.get('sunset')).toBe('Tue, 01 Jul 2025 00:00:00 GMT');
      expect(res.headers.get('deprecation')).toBe(`@${Date.parse('2025-01-01T00:00:00Z') / 1000}`);
      expect(res.headers.get('link')).toContain('/v6/customer-portal/cms/posts/hello>; rel="successor-version"');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 90_000);
});
