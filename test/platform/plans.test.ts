import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock, TestClock } from '../../subgraphs/kernel/clock.ts';
import { DEFAULT_PLANS } from '../../subgraphs/kernel/plan-catalogue.ts';
import { http } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, signupCompany, type Company } from '../support/fixtures.ts';
import { freePort, startServerProcess, waitReady } from '../support/local-servers.ts';
import { ownServer } from '../support/server.ts';

/**
 * Plans, quotas and rate limits (router/rate-limits.ts, kernel/plans.ts): the counters are rows in
 * the database, moved by the gateway's pipeline for every interface. A router of its own runs with
 * small limits (PLANS, STOREFRONT_REQUESTS_PER_MINUTE) so that a test reaches them; the worker's
 * server keeps the defaults, on which the README's walk-throughs run.
 */

const LIMITS = { requestsPerMinute: 7, apiCallsPerMonth: 12, staffMembers: 3 };
const STOREFRONT_PER_MINUTE = 5;
let own: Awaited<ReturnType<typeof ownServer>>;
let company: Company;

const ACCEPT = 'application/json, text/event-stream';
const call = (path: string, init: Parameters<typeof http>[1] = {}) => http(path, { base: own.url, ...init });
/** An MCP tools/call over plain HTTP, with its answer's header fields. */
const mcpCall = async (key: string, name: string, args: Record<string, unknown> = {}, meta = false) => {
  const res = await fetch(`${own.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...bearer(key) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: { progressToken: 1 } } : {}) } }),
  });
  const text = await res.text();
  const json = JSON.parse(text.startsWith('event:') ? text.slice(text.indexOf('data: ') + 6) : text);
  return { status: res.status, headers: res.headers, result: json.result as { isError?: boolean; content: { text: string }[]; structuredContent?: any } };
};
const gql = (query: string, headers: Record<string, string>) => call('/graphql', { body: { query }, headers });
const usage = async (key: string) => (await call('/v6/merchant/plan', { headers: bearer(key) })).body.data;
/** Sets the router's clock (the rules' "now"; the job queue keeps the real one). */
const at = (time: number) => void (own.app.platform.runtime.clock = new TestClock(time));
/** The start of a fresh minute, well inside the current period. */
let minute = Date.parse('2031-03-10T10:00:00Z');
const nextMinute = () => at((minute += 60_000));

beforeAll(async () => {
  own = await ownServer({
    PLANS: JSON.stringify({ free: { limits: LIMITS } }),
    STOREFRONT_REQUESTS_PER_MINUTE: String(STOREFRONT_PER_MINUTE),
  });
  company = await signupCompany('Plans Studio', own.url);
});

afterAll(async () => {
  await own?.close();
});

describe('rate limits and the API-call meter', () => {
  it('every merchant answer on every interface carries RateLimit-Policy and RateLimit, counting down', async () => {
    const fresh = await signupCompany('Headers Studio', own.url);
    nextMinute();
    const answers = [
      await call('/v6/merchant/services', { headers: bearer(fresh.apiKey) }),
      await gql('{ services { items { id } } }', bearer(fresh.apiKey)),
      await mcpCall(fresh.apiKey, 'list_services'),
      await mcpCall(fresh.apiKey, 'list_services', {}, true),
    ];
    const remaining = answers.map((a, i) => {
      expect(a.status, `answer ${i}`).toBe(200);
      expect(a.headers.get('ratelimit-policy'), `answer ${i}`).toMatch(/^"minute";q=7;w=60, "month";q=12;w=\d+$/);
      const fields = /^"minute";r=(\d+);t=(\d+), "month";r=(\d+);t=(\d+)$/.exec(a.headers.get('ratelimit') ?? '');
      expect(fields, `answer ${i}: ${a.headers.get('ratelimit')}`).not.toBeNull();
      expect(Number(fields![2])).toBeLessThanOrEqual(60);
      return [Number(fields![1]), Number(fields![3])];
    });
    expect(remaining).toEqual([
      [6, 11],
      [5, 10],
      [4, 9],
      [3, 8],
    ]);
    // The storefront: its own policy, by address and company, and no meter.
    const storefront = await call('/v6/customer-portal/shop/categories', { headers: { 'x-company-id': fresh.companyId } });
    expect(storefront.status).toBe(200);
    expect(storefront.headers.get('ratelimit-policy')).toBe(`"storefront";q=${STOREFRONT_PER_MINUTE};w=60`);
    expect(storefront.headers.get('ratelimit')).toMatch(/^"storefront";r=4;t=\d+$/);
    nextMinute();
    const read = await usage(fresh.apiKey);
    // The four calls above and this read; the storefront's call is not metered.
    expect(read.usage.find((u: any) => u.meter === 'apiCalls')).toEqual({ meter: 'apiCalls', used: 5, limit: 12, remaining: 7 });
  });

  it('20 concurrent calls with one key against a rate of 7: exactly 7 run, 13 are 429 with Retry-After', async () => {
    const fresh = await signupCompany('Rate Studio', own.url);
    nextMinute();
    own.app.platform.runtime.clock = new TestClock(minute + 45_000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('/v6/merchant/services', { headers: bearer(fresh.apiKey) })));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect([ok.length, refused.length]).toEqual([7, 13]);
    for (const a of refused) {
      expect(a.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 15 } });
      expect(a.headers.get('retry-after')).toBe('15');
      expect(a.headers.get('ratelimit')).toMatch(/^"minute";r=0;t=15$/);
    }
    // GraphQL and MCP refuse the same way; the next minute lets the key through again.
    const graphqlRefused = await gql('{ services { items { id } } }', bearer(fresh.apiKey));
    expect(graphqlRefused.status).toBe(429);
    expect(graphqlRefused.headers.get('retry-after')).toBe('15');
    expect(graphqlRefused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 15 });
    const mcpRefused = await mcpCall(fresh.apiKey, 'list_services');
    expect(mcpRefused.result.isError).toBe(true);
    expect(JSON.parse(mcpRefused.result.content[0].text).error).toMatchObject({ code: 'RATE_LIMITED' });
    expect(mcpRefused.headers.get('retry-after')).toBe('15');
    nextMinute();
    expect((await call('/v6/merchant/services', { headers: bearer(fresh.apiKey) })).status).toBe(200);
    // What was refused was not metered: 7 calls, then 1, then this read.
    expect((await usage(fresh.apiKey)).usage.find((u: any) => u.meter === 'apiCalls').used).toBe(9);
  });

  it('20 concurrent calls from four keys against a quota of 12: exactly 12 run, the rest are 402 naming the limit and the plan that lifts it', async () => {
    const fresh = await signupCompany('Quota Studio', own.url);
    nextMinute();
    const keys = [fresh.apiKey];
    for (const name of ['Second', 'Third', 'Fourth'])
      keys.push((await call('/v6/merchant/api-keys', { body: { name }, headers: bearer(fresh.apiKey) })).body.data.key as string);
    nextMinute();
    // Five calls a key, inside its rate of 7: only the company's quota refuses. The keys' creation counted 3.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call('/v6/merchant/services', { headers: bearer(keys[i % 4]) })));
    const ok = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 402);
    expect([ok, refused.length]).toEqual([9, 11]);
    for (const a of refused)
      expect(a.body.error).toMatchObject({
        code: 'PLAN_LIMIT_REACHED',
        details: { limit: 'apiCallsPerMonth', max: 12, plan: 'free', upgradeTo: 'starter' },
      });
    expect(refused[0].body.error.message).toMatch(/Starter plan \(starter\) lifts it/);
    const mcpRefused = await mcpCall(keys[1], 'list_services');
    expect(JSON.parse(mcpRefused.result.content[0].text).error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', details: { plan: 'free' } });
    const graphqlRefused = await gql('{ services { items { id } } }', bearer(keys[2]));
    expect(graphqlRefused.status).toBe(402);
    expect(graphqlRefused.body.errors[0].extensions).toMatchObject({ code: 'PLAN_LIMIT_REACHED', limit: 'apiCallsPerMonth' });
    // Even reading the plan is an API call: the next period starts from zero.
    expect((await call('/v6/merchant/plan', { headers: bearer(keys[3]) })).status).toBe(402);
    at(Date.parse('2031-04-02T10:00:00Z'));
    const next = await usage(fresh.apiKey);
    expect(next.periodStart).toBe('2031-04-01T00:00:00.000Z');
    expect(next.periodEnd).toBe('2031-05-01T00:00:00.000Z');
    expect(next.usage.find((u: any) => u.meter === 'apiCalls')).toMatchObject({ used: 1, limit: 12 });
    at(minute);
  });

  it('the storefront is limited per client address and company, and a merchant key is not', async () => {
    const fresh = await signupCompany('Storefront Rate Studio', own.url);
    nextMinute();
    const tenant = { 'x-company-id': fresh.companyId };
    const answers = await Promise.all(Array.from({ length: 8 }, () => call('/v6/customer-portal/shop/categories', { headers: tenant })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    // Another company's storefront, from the same address, has its own count.
    expect((await call('/v6/customer-portal/shop/categories', { headers: { 'x-company-id': company.companyId } })).status).toBe(200);
    nextMinute();
    expect((await call('/v6/customer-portal/shop/categories', { headers: tenant })).status).toBe(200);
  });
});

describe('plans', () => {
  it('get_plan_and_usage shows the free plan, its limits, the period and the plans to compare', async () => {
    nextMinute();
    const plan = await usage(company.apiKey);
    expect(plan.plan).toMatchObject({ id: 'free', name: 'Free', price: { amount: '0.00', currency: 'USD' }, features: [] });
    expect(plan.plan.limits).toMatchObject(LIMITS);
    expect(plan.paidUntil).toBeNull();
    expect(plan.scheduledChange).toBeNull();
    expect(plan.periodStart).toBe('2031-03-01T00:00:00.000Z');
    expect(plan.usage.map((u: any) => u.meter)).toEqual(['apiCalls', 'emailMessages', 'smsMessages', 'whatsappMessages']);
    expect(plan.plans.map((p: any) => [p.id, p.price])).toEqual([
      ['free', { amount: '0.00', currency: 'USD' }],
      ['starter', { amount: '49.00', currency: 'USD' }],
    ]);
  });

  it('buying Starter goes through the checkout: the signed webhook activates it, a second month extends it, a downgrade takes effect at the period’s end', async () => {
    const fresh = await signupCompany('Upgrade Studio', own.url);
    const paidAt = Date.parse('2031-03-15T12:00:00Z');
    at(paidAt);
    const refused = await call('/v6/merchant/plan/checkout', { body: { plan: 'free' }, headers: bearer(fresh.apiKey) });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toMatchObject({ field: 'plan' });
    const checkout = await call('/v6/merchant/plan/checkout', { body: { plan: 'starter', paymentMethodId: 'sandbox' }, headers: bearer(fresh.apiKey) });
    expect(checkout.status).toBe(200);
    expect(checkout.body.data).toMatchObject({ status: 'requires_action', plan: { id: 'starter' }, amount: { amount: '49.00', currency: 'USD' } });
    // The merchant pays on the provider's hosted page; its webhook (a queued, signed delivery) activates the plan.
    const page = await fetch(checkout.body.data.checkoutUrl, {
      method: 'POST',
      body: 'action=pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(page.status).toBe(200);
    let polled = paidAt;
    const active = await eventually(async () => {
      // Each look a minute later, inside the key's rate.
      at((polled += 60_000));
      const read = await usage(fresh.apiKey);
      if (read.plan.id !== 'starter') throw new Error(`still ${read.plan.id}`);
      return read;
    });
    expect(active.plan.limits).toEqual(DEFAULT_PLANS[1].limits);
    expect(active.plan.features).toEqual(['sms', 'whatsapp', 'approvals', 'reports']);
    // Paid for a month from the payment: the paid time is the new period.
    const start = new Date(active.periodStart);
    expect(start.getTime()).toBeGreaterThan(paidAt);
    const paidUntil = new Date(start);
    paidUntil.setUTCMonth(start.getUTCMonth() + 1);
    expect(active.paidUntil).toBe(paidUntil.toISOString());
    expect(active.periodEnd).toBe(paidUntil.toISOString());
    // A new period began with the plan: only the reads since count.
    expect(active.usage.find((u: any) => u.meter === 'apiCalls').used).toBeLessThan(10);
    // A second month, paid at once (sandbox_success): the paid time goes a month further, the period stays.
    const renewal = await call('/v6/merchant/plan/checkout', { body: { plan: 'starter', paymentMethodId: 'sandbox_success' }, headers: bearer(fresh.apiKey) });
    expect(renewal.status).toBe(200);
    const end = new Date(paidUntil);
    end.setUTCMonth(paidUntil.getUTCMonth() + 1);
    const renewed = await eventually(async () => {
      const read = await usage(fresh.apiKey);
      expect(read.paidUntil).toBe(end.toISOString());
      return read;
    });
    expect(renewed.periodStart).toBe(active.periodStart);
    // Free from the end of the paid time: scheduled, shown, and Starter until then.
    const downgrade = await call('/v6/merchant/plan/change', { body: { plan: 'free' }, headers: bearer(fresh.apiKey) });
    expect(downgrade.status).toBe(200);
    expect(downgrade.body.data).toMatchObject({ plan: { id: 'starter' }, scheduledChange: { plan: { id: 'free' }, at: end.toISOString() } });
    at(end.getTime() - 60_000);
    expect((await usage(fresh.apiKey)).plan.id).toBe('starter');
    at(end.getTime());
    const after = await usage(fresh.apiKey);
    expect(after).toMatchObject({ plan: { id: 'free' }, paidUntil: null, scheduledChange: null, periodStart: end.toISOString() });
    expect(after.plan.limits).toMatchObject(LIMITS);
    at(minute);
  });

  it('refuses what the plan tools cannot do, naming the field', async () => {
    nextMinute();
    const post = (path: string, body: unknown) => call(path, { body, headers: bearer(company.apiKey) });
    const cases: [string, unknown, number, string][] = [
      ['/v6/merchant/plan/checkout', {}, 400, 'plan'],
      ['/v6/merchant/plan/checkout', { plan: 'gold' }, 400, 'plan'],
      ['/v6/merchant/plan/checkout', { plan: 'starter', paymentMethodId: 'manual' }, 400, 'paymentMethodId'],
      ['/v6/merchant/plan/change', { plan: 'gold' }, 400, 'plan'],
      // A dearer plan is bought, not scheduled.
      ['/v6/merchant/plan/change', { plan: 'starter' }, 409, 'plan'],
    ];
    for (const [path, body, status, field] of cases) {
      const answer = await post(path, body);
      expect({ path, body, status: answer.status, field: answer.body.error?.details?.field }).toEqual({ path, body, status, field });
    }
    // Staying on the plan the company is on changes nothing.
    expect((await post('/v6/merchant/plan/change', { plan: 'free' })).body.data).toMatchObject({ plan: { id: 'free' }, scheduledChange: null });
  });

  it('6 concurrent staff members against a plan of 3: exactly 3 are added, the others are 402 naming the limit', async () => {
    const fresh = await signupCompany('Staff Limit Studio', own.url);
    nextMinute();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call('/v6/merchant/staff', { body: { name: `Stylist ${i}` }, headers: bearer(fresh.apiKey) })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    const refused = answers.filter((a) => a.status === 402);
    expect(refused).toHaveLength(3);
    for (const a of refused)
      expect(a.body.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', details: { limit: 'staffMembers', max: 3, plan: 'free', upgradeTo: 'starter' } });
  });

  it('a key reads its own company’s plan only, and a caller without a key none', async () => {
    nextMinute();
    const other = await call('/v6/merchant/plan', { headers: { ...bearer(company.apiKey), 'x-company-id': '00000000-0000-4000-8000-000000000000' } });
    expect(other.status).toBe(401);
    expect(JSON.stringify(other.body)).not.toContain('apiCalls');
    const anonymous = await call('/v6/merchant/plan');
    expect(anonymous.status).toBe(401);
  });
});

describe('campaign messages', () => {
  it('count against the channel’s monthly quota when sending starts: a send that does not fit is refused whole, one that fits counts its recipients', async () => {
    const mail = await ownServer({ PLANS: JSON.stringify({ free: { limits: { emailMessagesPerMonth: 2 } } }) });
    try {
      const fresh = await signupCompany('Mail Quota Studio', mail.url);
      const merchant = (path: string, body?: unknown) => http(path, { base: mail.url, body, headers: bearer(fresh.apiKey) });
      const people: string[] = [];
      for (const name of ['Ana', 'Ben', 'Cleo']) {
        const email = `${name.toLowerCase()}.${Date.now()}@quota.example`;
        const registered = await http('/v6/customer-portal/auth/register', {
          base: mail.url,
          body: { name, email },
          headers: { 'x-company-id': fresh.companyId },
        });
        people.push(registered.body.data.member.id);
      }
      const campaignOf = async (customerIds: string[]) => {
        const segment = (await merchant('/v6/merchant/customer-segments', { name: `Of ${customerIds.length}`, customerIds })).body.data;
        // Campaigns learns the customers from members' events a moment later.
        await eventually(async () => expect((await merchant(`/v6/merchant/customer-segments/${segment.id}/preview`)).body.data.count).toBe(customerIds.length));
        const body = {
          name: `To ${customerIds.length}`,
          channel: 'email',
          recipientSource: 'segment',
          segmentId: segment.id,
          channelConfig: { subject: 'Hi', html: '<p>Hi</p>' },
        };
        return (await merchant('/v6/merchant/campaigns', body)).body.data.id as string;
      };
      const three = await campaignOf(people);
      const refused = await merchant(`/v6/merchant/campaigns/${three}/send`, {});
      expect(refused.status).toBe(402);
      expect(refused.body.error).toMatchObject({
        code: 'PLAN_LIMIT_REACHED',
        details: { limit: 'emailMessagesPerMonth', max: 2, plan: 'free', upgradeTo: 'starter' },
      });
      expect((await merchant(`/v6/merchant/campaigns/${three}`)).body.data).toMatchObject({ status: 'DRAFT', deliveries: { total: 0 } });
      const two = await campaignOf(people.slice(0, 2));
      expect((await merchant(`/v6/merchant/campaigns/${two}/send`, {})).status).toBe(202);
      const plan = (await merchant('/v6/merchant/plan')).body.data;
      expect(plan.usage.find((u: any) => u.meter === 'emailMessages')).toEqual({ meter: 'emailMessages', used: 2, limit: 2, remaining: 0 });
    } finally {
      await mail.close();
    }
  });
});

describe.runIf(inject('databaseUrl'))('across processes on PostgreSQL', () => {
  it('the rate limit holds across two routers on one database: 20 concurrent calls against 7 run exactly 7', async () => {
    const port = await freePort();
    const second = startServerProcess(mkdtempSync(join(tmpdir(), 'plans-second-')), port, {
      DATABASE_URL: own.databaseUrl!,
      JWT_SECRET: 'test-secret-test-secret-test-secret-42',
      // Stored at its start, these plans are both routers' (one database): the same rate, a quota out of the way.
      PLANS: JSON.stringify({ free: { limits: { ...LIMITS, apiCallsPerMonth: 1000 } } }),
    });
    try {
      await waitReady(port);
      const fresh = await signupCompany('Two Routers Studio', own.url);
      // Both on the real clock: the window is the current minute of both processes.
      own.app.platform.runtime.clock = systemClock;
      const key = [fresh.apiKey];
      for (let i = 0; i < 3; i++)
        key.push((await http('/v6/merchant/api-keys', { base: own.url, body: { name: `Key ${i}` }, headers: bearer(fresh.apiKey) })).body.data.key);
      const bases = [own.url, `http://127.0.0.1:${port}`];
      // A fresh key a try: a try that spans the turn of a minute is not counted in one window, and is made again.
      for (const k of key.slice(1)) {
        const began = Date.now();
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => http('/v6/merchant/services', { base: bases[i % 2], headers: bearer(k) })));
        if (Math.floor(began / 60_000) !== Math.floor(Date.now() / 60_000)) continue;
        expect(answers.filter((a) => a.status === 200)).toHaveLength(7);
        expect(answers.filter((a) => a.status === 429)).toHaveLength(13);
        // Each router answered some of each.
        expect(new Set(answers.map((a, i) => `${i % 2}:${a.status}`)).size).toBeGreaterThan(2);
        return;
      }
      throw new Error('every try spanned the turn of a minute');
    } finally {
      second.child.kill('SIGKILL');
      await second.exited;
      at(minute);
    }
  });
});
