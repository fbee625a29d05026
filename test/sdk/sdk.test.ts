import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, createCore, paginate, type Client } from '../../sdk/src/index.ts';
import { blog } from '../../sdk/src/namespaces/blog.ts';
import { dayFromNow } from '../support/booking.ts';
import { lastCode, uniqueEmail } from '../support/client.ts';
import { smoke } from './smoke.js';
import { sdkStudio } from './studio.ts';

/**
 * The SDK (issue 15) against the started server, in Node: the contract's methods, the OTP flow,
 * ApiError, Idempotency-Key and retries, pagination. The same storefront smoke runs in an edge
 * runtime and in Chromium (runtimes.test.ts).
 */
describe('the TypeScript SDK', () => {
  let baseUrl: string;
  let merchant: Client;
  let companyId: string;
  let serviceId: string;
  const date = dayFromNow(5);

  beforeAll(async () => {
    ({ baseUrl, merchant, companyId, serviceId } = await sdkStudio());
  }, 120_000);

  it('has the contract’s methods in sixteen namespaces', () => {
    const namespaces = Object.keys(merchant).filter((k) => typeof (merchant as any)[k] === 'object');
    expect(namespaces.sort()).toEqual([
      'auth',
      'blog',
      'bookings',
      'campaigns',
      'content',
      'customers',
      'events',
      'loyalty',
      'messaging',
      'orders',
      'organisation',
      'promotions',
      'services',
      'shop',
      'storefront',
      'surveys',
    ]);
    for (const [ns, method] of [
      ['bookings', 'listServices'],
      ['bookings', 'getTimeSlots'],
      ['bookings', 'createBooking'],
      ['bookings', 'list'],
      ['blog', 'listPosts'],
      ['blog', 'getPostBySlug'],
      ['shop', 'listProducts'],
      ['campaigns', 'list'],
      ['campaigns', 'create'],
      ['promotions', 'create'],
    ]) {
      expect(typeof (merchant as any)[ns][method], `${ns}.${method}`).toBe('function');
    }
  });

  it('runs the storefront smoke: OTP sign-in, services, a booking, the customer’s bookings, posts', async () => {
    const email = uniqueEmail('sdk-smoke');
    const since = Date.now();
    const result = await smoke(await import('../../sdk/src/index.ts'), { baseUrl, companyId, email, date, readCode: (to: string) => lastCode(to, since) });
    expect(result.serviceCount).toBe(1);
    expect(result.bookingStatus).toBe('CONFIRMED');
    expect(result.mine).toEqual([result.bookingId]);
    expect(result.postTitles).toEqual(['Opening hours']);
    expect(result.refused).toEqual({ name: 'ApiError', code: 'NOT_FOUND', status: 404, isApiError: true });
  });

  it('serves the contract’s merchant methods', async () => {
    expect((await merchant.bookings.listServices()).items.map((s) => s.id)).toEqual([serviceId]);
    const slots = (await merchant.bookings.getTimeSlots({ serviceId, startDate: date, endDate: date })).items;
    expect(slots.length).toBeGreaterThan(0);
    const booking = await merchant.bookings.createBooking({
      serviceId,
      slotTime: slots[1].start,
      participants: 2,
      customer: { name: 'Ana', email: uniqueEmail('ana') },
    });
    expect(booking).toMatchObject({ id: expect.any(String), status: 'CONFIRMED' });
    expect((await merchant.bookings.list({ date })).items.map((b) => b.id)).toContain(booking.id);
    // The slot is full now: the catalogue's code, the status and the request id reach the caller.
    const taken = await merchant.bookings
      .createBooking({ serviceId, slotTime: slots[1].start, participants: 1, customer: { name: 'Bo', email: uniqueEmail('bo') } })
      .catch((e) => e);
    expect(taken).toBeInstanceOf(ApiError);
    expect(taken).toMatchObject({ code: 'SLOT_TAKEN', status: 409, requestId: expect.any(String) });

    const posts = await merchant.blog.listPosts({ status: 'published' });
    expect(posts.items.map((p) => p.title)).toEqual(['Opening hours']);
    expect((await merchant.blog.getPostBySlug({ slug: posts.items[0].slug })).title).toBe('Opening hours');

    const product = await merchant.shop.createProduct({ name: 'Shampoo', price: '12.50', status: 'active' });
    expect((await merchant.shop.listProducts()).items.map((p) => p.id)).toEqual([product.id]);

    const promotion = await merchant.promotions.create({
      name: 'Ten',
      code: 'ten',
      type: 'percentage',
      value: '10',
      bookingEnabled: true,
      onlineEnabled: true,
      posEnabled: false,
    });
    expect(promotion).toMatchObject({ code: 'TEN', id: expect.any(String) });
  });

  it('reads the plan and its usage, and refuses a checkout of the free plan naming the field', async () => {
    const plan = await merchant.organisation.getPlanAndUsage();
    expect(plan.plan).toMatchObject({ id: 'free', price: { amount: '0.00', currency: 'USD' } });
    expect(plan.usage.find((u) => u.meter === 'apiCalls')!.used).toBeGreaterThan(0);
    const error = await merchant.organisation.startPlanCheckout({ plan: 'free' }).catch((e) => e);
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', status: 400, details: { field: 'plan' } });
  });

  it('throws ApiError with the field of a bad input', async () => {
    const error = await merchant.promotions
      .create({ name: 'Bad', code: 'BAD', type: 'percentage', value: 'lots', bookingEnabled: true, onlineEnabled: true, posEnabled: false })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', status: 400, details: { field: 'value' } });
    expect(error.message).toMatch(/^value/);
    // A missing path parameter never leaves the client.
    await expect(merchant.campaigns.get({ campaignId: '' })).rejects.toThrow(/campaignId is required/);
  });

  it('sends a new Idempotency-Key with each POST, keeps a given one, and retries with the same key', async () => {
    const seen: string[] = [];
    let failures = 1;
    const client = createClient({
      baseUrl,
      token: merchant.getToken()!,
      // The first attempt's answer is lost on the way back: the write happened, the client retries.
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const key = new Headers(init?.headers).get('idempotency-key');
        if (key) seen.push(key);
        if (key && failures-- > 0) throw new TypeError('socket hang up');
        return response;
      },
    });
    const promotion = (code: string) => ({
      name: code,
      code,
      type: 'percentage' as const,
      value: '10',
      bookingEnabled: false,
      onlineEnabled: true,
      posEnabled: false,
    });
    const first = await client.promotions.create(promotion('RETRIED'));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    // One promotion, not two (nor a duplicate-code 409): the retry was answered with the first request's result.
    const listed = await client.promotions.list({ limit: 100 });
    expect(listed.items.filter((p) => p.code === 'RETRIED').map((p) => p.id)).toEqual([first.id]);

    const given = await client.promotions.create(promotion('GIVEN'), { idempotencyKey: 'sdk-test-key-1' });
    const replay = await client.promotions.create(promotion('GIVEN'), { idempotencyKey: 'sdk-test-key-1' });
    expect(replay.id).toBe(given.id);
    await client.promotions.create(promotion('OTHER'));
    // Keys: the retried one twice, the given one twice, then a new one.
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(3);
  });

  it('walks every page of a list', async () => {
    for (const code of ['PAGE1', 'PAGE2', 'PAGE3'])
      await merchant.promotions.create({ name: code, code, type: 'percentage', value: '5', bookingEnabled: false, onlineEnabled: true, posEnabled: false });
    const codes: string[] = [];
    for await (const promotion of paginate(merchant.promotions.list, { limit: 2 })) codes.push(promotion.code);
    expect(codes.filter((c) => c.startsWith('PAGE')).sort()).toEqual(['PAGE1', 'PAGE2', 'PAGE3']);
    expect(codes).toHaveLength(new Set(codes).size);
  });

  it('keeps, refreshes and forgets the customer token', async () => {
    const client = createClient({ baseUrl, companyId });
    const email = uniqueEmail('sdk-session');
    const since = Date.now();
    await client.auth.requestOtp({ email });
    await client.auth.verifyOtp({ email, code: await lastCode(email, since) });
    const first = client.getToken();
    expect((await client.auth.validateToken()).valid).toBe(true);
    await client.auth.refresh();
    expect(client.getToken()).not.toBe(first);
    expect((await client.bookings.listMine()).items).toEqual([]);
    await client.auth.logout();
    expect(client.getToken()).toBeNull();
    await expect(client.bookings.listMine()).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });

  it('serves one namespace on its own core', async () => {
    const posts = await blog(createCore({ baseUrl, companyId })).browsePosts({ limit: 5 });
    expect(posts.items.map((p) => p.title)).toEqual(['Opening hours']);
  });
});
