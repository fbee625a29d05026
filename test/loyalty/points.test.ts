import { describe, expect, it } from 'vitest';
import { graphql, http } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, signInCustomer } from '../support/fixtures.ts';
import { callTool, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';
import { dayFromNow, setupSalon } from '../support/booking.ts';
import { TestClock } from '../../subgraphs/kernel/clock.ts';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import { EXPIRE_POINTS_QUEUE, loyaltyJobs } from '../../subgraphs/loyalty/jobs.ts';
import { loyaltySubscriptions } from '../../subgraphs/loyalty/subscriptions.ts';
import { openShop, product, P } from '../commerce/shop.ts';

/** Runs the daily expiry job as the queue would, on a runtime whose clock stands `days` after now. */
async function expireAfter(days: number, companyId: string) {
  const { app } = await testServer();
  const runtime = { ...app.platform.runtime, clock: new TestClock(Date.now() + days * 86_400_000) };
  await loyaltyJobs[EXPIRE_POINTS_QUEUE].handler(RequestContext.system(runtime, companyId), { companyId });
}

const loyaltyOf = (merchant: any, customerId: string, args: Record<string, unknown> = {}) =>
  callTool(merchant, 'get_customer_loyalty', { customerId, ...args });

describe('loyalty points', () => {
  it('earns on a paid order (once, even when the event is delivered again) and takes back on a refund', async () => {
    const shop = await openShop('Points Shop');
    await callTool(shop.merchant, 'set_loyalty_rules', { pointsPerCurrencyUnit: '2' });
    const lamp = await product(shop, { name: 'Lamp', price: '24.99', stock: 5 });
    const me = await signInCustomer(shop.company.companyId);
    const order = (
      await http(`${P}/shop/orders`, {
        body: { items: [{ productId: lamp.id, quantity: 2 }], paymentMethodId: 'manual' },
        headers: { ...shop.h, ...bearer(me.token) },
      })
    ).body.data;
    expect((await loyaltyOf(shop.merchant, me.customerId)).balance).toBe(0);
    await callTool(shop.merchant, 'mark_order_paid', { orderId: order.id });
    // 49.98 at 2 points per euro: 99 points (rounded down).
    const earned = await eventually(async () => {
      const got = await loyaltyOf(shop.merchant, me.customerId);
      expect(got.balance).toBe(99);
      return got;
    });
    expect(earned).toMatchObject({
      lifetimeEarned: 99,
      expiringSoon: 0,
      ledger: { items: [{ type: 'EARN', points: 99, balanceAfter: 99, sourceType: 'order', sourceId: order.id, remaining: 99 }] },
    });
    expect(new Date(earned.nextExpiry).getTime()).toBeGreaterThan(Date.now() + 364 * 86_400_000);

    // The same event handled again (a redelivery) earns nothing.
    const { app } = await testServer();
    const payload = {
      orderId: order.id,
      number: order.number,
      customerId: me.customerId,
      customerEmail: me.email,
      channel: 'online' as const,
      totalMinor: 4998,
      currency: 'EUR',
      lines: [],
    };
    await RequestContext.system(app.platform.runtime, shop.company.companyId).transaction((tx) =>
      loyaltySubscriptions['commerce.order.paid']!(tx, {
        id: 'redelivered',
        type: 'commerce.order.paid',
        companyId: shop.company.companyId,
        occurredAt: new Date().toISOString(),
        payload,
      } as any),
    );
    expect((await loyaltyOf(shop.merchant, me.customerId)).balance).toBe(99);

    // Half refunded: half the points go back; the rest with the rest of the refund.
    await callTool(shop.merchant, 'refund_order', { orderId: order.id, amount: '24.99' });
    await eventually(async () => expect((await loyaltyOf(shop.merchant, me.customerId)).balance).toBe(50));
    await callTool(shop.merchant, 'refund_order', { orderId: order.id });
    await eventually(async () => expect((await loyaltyOf(shop.merchant, me.customerId)).balance).toBe(0));
    const after = await loyaltyOf(shop.merchant, me.customerId);
    expect(after.lifetimeEarned).toBe(99);
    expect(after.ledger.items.map((e: any) => [e.type, e.points])).toEqual([
      ['REVERSAL', -50],
      ['REVERSAL', -49],
      ['EARN', 99],
    ]);
  });

  it('earns per completed booking, and the customer sees their points and tier through GraphQL', async () => {
    const { company, merchant, service } = await setupSalon();
    await callTool(merchant, 'set_loyalty_rules', { pointsPerCurrencyUnit: '1', pointsPerBooking: 10, bookingPointsPerCurrencyUnit: '1' });
    await callTool(merchant, 'create_membership_tier', { name: 'Silver', threshold: 50, benefits: ['5% off'], color: '#c0c0c0' });
    const me = await signInCustomer(company.companyId);
    const slot = await nextSlot(company.companyId, service.id);
    const booked = (
      await http('/v6/customer-portal/bookings/guest', {
        body: { serviceId: service.id, occurrenceStart: slot.start, occurrenceEnd: slot.end, customerName: 'Me', customerPhone: '+15550100999' },
        headers: { 'x-company-id': company.companyId, ...bearer(me.token) },
      })
    ).body.data;
    const { app } = await testServer();
    // Completed once it has started: recorded on a clock an hour after its start.
    const later = { ...app.platform.runtime, clock: new TestClock(new Date(booked.startsAt).getTime() + 3_600_000) };
    const { markOutcome, findBooking } = await import('../../subgraphs/booking/services/bookings.ts');
    const ctx = RequestContext.system(later, company.companyId);
    await markOutcome(ctx, await findBooking(ctx, booked.id, false), 'COMPLETED');
    // 10 for the booking and 49 for its 49.00.
    await eventually(async () => expect((await loyaltyOf(merchant, me.customerId)).balance).toBe(59));
    const mine = await graphql('{ currentCustomer { loyalty { balance lifetimeEarned expiringSoon tier { name color benefits } } } }', {}, bearer(me.token));
    expect(mine.body.data.currentCustomer.loyalty).toEqual({
      balance: 59,
      lifetimeEarned: 59,
      expiringSoon: 0,
      tier: { name: 'Silver', color: '#C0C0C0', benefits: ['5% off'] },
    });
  });

  it('expires points by lots, oldest first, under an injected clock; the tier stays (lifetime points)', async () => {
    const shop = await openShop('Expiry Points Shop');
    await callTool(shop.merchant, 'create_membership_tier', { name: 'Gold', threshold: 100 });
    const me = await signInCustomer(shop.company.companyId);
    await callTool(shop.merchant, 'set_loyalty_rules', { expiryDays: 10 });
    const cup = await product(shop, { name: 'Cup', price: '60', stock: 10 });
    const buy = async () => {
      const o = (
        await http(`${P}/shop/orders`, {
          body: { items: [{ productId: cup.id, quantity: 1 }], paymentMethodId: 'manual' },
          headers: { ...shop.h, ...bearer(me.token) },
        })
      ).body.data;
      await callTool(shop.merchant, 'mark_order_paid', { orderId: o.id });
    };
    await buy();
    await eventually(async () => expect((await loyaltyOf(shop.merchant, me.customerId)).balance).toBe(60));
    await callTool(shop.merchant, 'set_loyalty_rules', { expiryDays: 20 });
    await buy();
    await eventually(async () => expect((await loyaltyOf(shop.merchant, me.customerId)).balance).toBe(120));
    // Spend 30: taken from the oldest lot (expiring in 10 days), which keeps 30.
    await callTool(shop.merchant, 'adjust_points', { customerId: me.customerId, points: -30, reason: 'Used at the counter' });
    expect((await loyaltyOf(shop.merchant, me.customerId)).expiringSoon).toBe(90);

    await expireAfter(9, shop.company.companyId);
    expect((await loyaltyOf(shop.merchant, me.customerId)).balance).toBe(90);
    await expireAfter(11, shop.company.companyId);
    const mid = await loyaltyOf(shop.merchant, me.customerId);
    expect(mid).toMatchObject({ balance: 60, lifetimeEarned: 120, tier: { name: 'Gold' } });
    expect(mid.ledger.items[0]).toMatchObject({ type: 'EXPIRE', points: -30, balanceAfter: 60, sourceType: 'expiry' });
    // Running again changes nothing; the second lot goes after 20 days.
    await expireAfter(11, shop.company.companyId);
    expect((await loyaltyOf(shop.merchant, me.customerId)).balance).toBe(60);
    await expireAfter(21, shop.company.companyId);
    expect(await loyaltyOf(shop.merchant, me.customerId)).toMatchObject({ balance: 0, lifetimeEarned: 120, tier: { name: 'Gold' }, nextExpiry: null });
  });

  it('adjust_points never takes a balance below zero, even under 20 concurrent debits', async () => {
    const shop = await openShop('Adjust Shop');
    const me = await signInCustomer(shop.company.companyId);
    const added = await callTool(shop.merchant, 'adjust_points', { customerId: me.customerId, points: 50, reason: 'Welcome' });
    expect(added).toMatchObject({ type: 'ADJUST', points: 50, balanceAfter: 50, sourceType: 'merchant', reason: 'Welcome' });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        shop.merchant.callTool({ name: 'adjust_points', arguments: { customerId: me.customerId, points: -10, reason: 'Race' } }),
      ),
    );
    expect(results.filter((r) => !r.isError)).toHaveLength(5);
    for (const r of results.filter((r) => r.isError))
      expect(JSON.parse((r.content as any)[0].text).error).toMatchObject({ code: 'CONFLICT', details: { reason: 'INSUFFICIENT_POINTS', field: 'points' } });
    const got = await loyaltyOf(shop.merchant, me.customerId, { limit: 100 });
    expect(got.balance).toBe(0);
    expect(got.lifetimeEarned).toBe(0);
    expect(got.ledger.pagination.total).toBe(6);

    // Errors name the field; another company's customer is not one of this company's.
    expect((await toolError(shop.merchant, 'adjust_points', { customerId: me.customerId, points: 0, reason: 'x' })).details.field).toBe('points');
    expect((await toolError(shop.merchant, 'adjust_points', { customerId: me.customerId, points: 5, reason: ' ' })).details.field).toBe('reason');
    expect((await toolError(shop.merchant, 'adjust_points', { customerId: 'nope', points: 5, reason: 'x' })).details.field).toBe('customerId');
    const other = await openShop('Other Adjust Shop');
    expect((await toolError(other.merchant, 'adjust_points', { customerId: me.customerId, points: 5, reason: 'x' })).details.field).toBe('customerId');
    expect((await toolError(other.merchant, 'get_customer_loyalty', { customerId: me.customerId })).details.field).toBe('customerId');
  });
});

describe('membership tiers and rules', () => {
  it('creates, updates and lists tiers; GET /membership-tiers shows them publicly; rules keep what is not given', async () => {
    const shop = await openShop('Tier Shop');
    expect(await callTool(shop.merchant, 'get_loyalty_rules')).toEqual({
      pointsPerCurrencyUnit: '1.00',
      pointsPerBooking: 0,
      bookingPointsPerCurrencyUnit: '0.00',
      expiryDays: 365,
    });
    expect(await callTool(shop.merchant, 'set_loyalty_rules', { pointsPerBooking: 5, expiryDays: 0 })).toEqual({
      pointsPerCurrencyUnit: '1.00',
      pointsPerBooking: 5,
      bookingPointsPerCurrencyUnit: '0.00',
      expiryDays: null,
    });
    expect((await toolError(shop.merchant, 'set_loyalty_rules', { pointsPerCurrencyUnit: '-1' })).details.field).toBe('pointsPerCurrencyUnit');
    expect((await toolError(shop.merchant, 'set_loyalty_rules', { expiryDays: 5000 })).details.field).toBe('expiryDays');

    const gold = await callTool(shop.merchant, 'create_membership_tier', {
      name: 'Gold',
      threshold: 1000,
      benefits: ['Free coffee', 'Priority booking'],
      color: '#d4af37',
    });
    expect(gold).toMatchObject({ name: 'Gold', threshold: 1000, benefits: ['Free coffee', 'Priority booking'], color: '#D4AF37' });
    await callTool(shop.merchant, 'create_membership_tier', { name: 'Silver', threshold: 200 });
    expect((await toolError(shop.merchant, 'create_membership_tier', { name: 'gold', threshold: 5 })).details.field).toBe('name');
    expect((await toolError(shop.merchant, 'create_membership_tier', { name: 'Bronze', threshold: 200 })).details.field).toBe('threshold');
    expect((await toolError(shop.merchant, 'create_membership_tier', { name: 'Bad', threshold: -1 })).details.field).toBe('threshold');
    expect((await toolError(shop.merchant, 'create_membership_tier', { name: 'Bad', threshold: 1, color: 'red' })).details.field).toBe('color');
    expect(await callTool(shop.merchant, 'update_membership_tier', { tierId: gold.id, threshold: 800, color: null })).toMatchObject({
      threshold: 800,
      color: null,
      name: 'Gold',
    });
    expect((await callTool(shop.merchant, 'list_membership_tiers')).items.map((t: any) => t.name)).toEqual(['Silver', 'Gold']);
    expect((await callTool(shop.merchant, 'list_membership_tiers', { search: 'gol' })).items.map((t: any) => t.name)).toEqual(['Gold']);

    const listed = await http('/v6/customer-portal/membership-tiers', { headers: shop.h });
    expect(listed.status).toBe(200);
    expect(listed.body.data.items.map((t: any) => [t.name, t.threshold])).toEqual([
      ['Silver', 200],
      ['Gold', 800],
    ]);
    expect(listed.body.data.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1, hasNextPage: false });
    expect((await http('/v6/customer-portal/membership-tiers?page=2&limit=1', { headers: shop.h })).body.data.items.map((t: any) => t.name)).toEqual(['Gold']);
    expect((await http('/v6/customer-portal/membership-tiers')).status).toBe(400);
    const other = await openShop('Other Tier Shop');
    expect((await http('/v6/customer-portal/membership-tiers', { headers: other.h })).body.data).toEqual({
      items: [],
      pagination: { page: 1, limit: 20, total: 0, totalPages: 1, hasNextPage: false },
    });
    expect((await toolError(other.merchant, 'update_membership_tier', { tierId: gold.id, name: 'Mine' })).code).toBe('NOT_FOUND');
  });
});

async function nextSlot(companyId: string, serviceId: string) {
  const day = dayFromNow(2);
  const res = await http(`/v6/customer-portal/services/${serviceId}/slots?date=${day}`, { headers: { 'x-company-id': companyId } });
  return res.body.data.items[0] as { start: string; end: string };
}
