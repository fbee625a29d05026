import { describe, expect, it } from 'vitest';
import { http } from '../support/client.ts';
import { bearer, signInCustomer } from '../support/fixtures.ts';
import { callTool, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';
import { TestClock } from '../../subgraphs/kernel/clock.ts';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import { claim } from '../../subgraphs/loyalty/services/gifts.ts';
import { openShop, type Shop } from '../commerce/shop.ts';

const P = '/v6/customer-portal';

async function member(shop: Shop, points: number) {
  const me = await signInCustomer(shop.company.companyId);
  if (points) await callTool(shop.merchant, 'adjust_points', { customerId: me.customerId, points, reason: 'Start' });
  return { ...me, h: { ...shop.h, ...bearer(me.token) } };
}

const redeem = (h: Record<string, string>, offerId: string, quantity?: number) =>
  http(`${P}/gifts/offers/${offerId}/redeem`, { body: quantity ? { quantity } : {}, headers: h });
const balanceOf = async (shop: Shop, customerId: string) => (await callTool(shop.merchant, 'get_customer_loyalty', { customerId })).balance;

describe('gift offers and redemptions', () => {
  it('offers gifts, redeems them for points with a code for the counter, marks them used or cancels them', async () => {
    const shop = await openShop('Gift Shop');
    const coffee = await callTool(shop.merchant, 'create_gift_offer', {
      title: 'Free coffee',
      pointsCost: 100,
      stock: 5,
      limitPerCustomer: 2,
      status: 'active',
      imageUrl: 'https://img.example/coffee.png',
    });
    expect(coffee).toMatchObject({ title: 'Free coffee', pointsCost: 100, stock: 5, limitPerCustomer: 2, status: 'active' });
    const draft = await callTool(shop.merchant, 'create_gift_offer', { title: 'Secret', pointsCost: 10 });
    expect(draft.status).toBe('draft');
    const gold = await callTool(shop.merchant, 'create_membership_tier', { name: 'Gold', threshold: 1000 });
    const vip = await callTool(shop.merchant, 'create_gift_offer', { title: 'VIP lounge', pointsCost: 50, minTierId: gold.id, status: 'active' });

    // Anonymous storefront: open gifts only, no per-customer answer.
    const anonymous = await http(`${P}/gifts/offers`, { headers: shop.h });
    expect(anonymous.body.data.items.map((o: any) => [o.title, o.redeemable])).toEqual([
      ['VIP lounge', null],
      ['Free coffee', null],
    ]);
    expect(anonymous.body.data.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1, hasNextPage: false });
    expect((await http(`${P}/gifts/offers?search=coffee`, { headers: shop.h })).body.data.items.map((o: any) => o.title)).toEqual(['Free coffee']);
    // Offers outside their dates are not open: neither listed nor counted.
    const hour = 3600_000;
    const later = await callTool(shop.merchant, 'create_gift_offer', {
      title: 'Summer gift',
      pointsCost: 10,
      status: 'active',
      startsAt: new Date(Date.now() + 24 * hour).toISOString(),
    });
    const over = await callTool(shop.merchant, 'create_gift_offer', {
      title: 'Spring gift',
      pointsCost: 20,
      status: 'active',
      startsAt: new Date(Date.now() - 48 * hour).toISOString(),
      endsAt: new Date(Date.now() - 24 * hour).toISOString(),
    });
    const dated = await callTool(shop.merchant, 'create_gift_offer', {
      title: 'This week',
      pointsCost: 30,
      status: 'active',
      startsAt: new Date(Date.now() - hour).toISOString(),
      endsAt: new Date(Date.now() + 24 * hour).toISOString(),
    });
    expect((await http(`${P}/gifts/offers`, { headers: shop.h })).body.data).toMatchObject({
      items: [{ title: 'This week' }, { title: 'VIP lounge' }, { title: 'Free coffee' }],
      pagination: { total: 3 },
    });
    for (const offer of [later, over, dated]) await callTool(shop.merchant, 'update_gift_offer', { offerId: offer.id, status: 'archived' });
    expect((await http(`${P}/gifts/offers/${draft.id}`, { headers: shop.h })).status).toBe(404);

    const me = await member(shop, 250);
    const mine = await http(`${P}/gifts/offers`, { headers: me.h });
    expect(mine.body.data.items.map((o: any) => [o.title, o.redeemable, o.unavailableReason, o.pointsShort])).toEqual([
      ['VIP lounge', false, 'TIER_REQUIRED', 0],
      ['Free coffee', true, null, 0],
    ]);
    expect((await http(`${P}/gifts/offers/${coffee.id}`, { headers: me.h })).body.data).toMatchObject({ id: coffee.id, redeemable: true });

    const given = await redeem(me.h, coffee.id, 2);
    expect(given.status).toBe(201);
    expect(given.body.data).toMatchObject({
      offerId: coffee.id,
      title: 'Free coffee',
      customerId: me.customerId,
      quantity: 2,
      points: 200,
      balanceAfter: 50,
      status: 'ISSUED',
    });
    expect(given.body.data.code).toMatch(/^[A-Z2-9]{8}$/);
    expect(await balanceOf(shop, me.customerId)).toBe(50);
    const why = async (offerId: string, quantity?: number) => (await redeem(me.h, offerId, quantity)).body.error;
    expect(await why(coffee.id)).toMatchObject({ code: 'CONFLICT', details: { reason: 'LIMIT_REACHED', limitPerCustomer: 2 } });
    expect(await why(vip.id)).toMatchObject({ code: 'CONFLICT', details: { reason: 'TIER_REQUIRED' } });
    expect(await why(draft.id)).toMatchObject({ code: 'CONFLICT', details: { reason: 'OFFER_NOT_ACTIVE' } });
    expect((await redeem(me.h, coffee.id, 11)).body.error.details.field).toBe('quantity');
    expect((await redeem(shop.h, coffee.id)).status).toBe(401);

    const other = await member(shop, 30);
    expect((await redeem(other.h, coffee.id)).body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'INSUFFICIENT_POINTS' } });
    expect((await http(`${P}/gifts/offers/${coffee.id}`, { headers: other.h })).body.data).toMatchObject({
      redeemable: false,
      unavailableReason: 'INSUFFICIENT_POINTS',
      pointsShort: 70,
    });
    expect(await balanceOf(shop, other.customerId)).toBe(30);

    const list = await http(`${P}/gifts/redemptions`, { headers: me.h });
    expect(list.body.data.items.map((r: any) => r.code)).toEqual([given.body.data.code]);
    expect((await http(`${P}/gifts/redemptions`, { headers: other.h })).body.data.items).toEqual([]);

    // At the counter: used once; a cancel of an issued one returns points and stock.
    const used = await callTool(shop.merchant, 'mark_redemption_used', { code: given.body.data.code.toLowerCase() });
    expect(used).toMatchObject({ status: 'USED' });
    expect((await toolError(shop.merchant, 'mark_redemption_used', { code: given.body.data.code })).code).toBe('CONFLICT');
    expect((await toolError(shop.merchant, 'cancel_redemption', { redemptionId: used.id })).code).toBe('CONFLICT');
    await callTool(shop.merchant, 'adjust_points', { customerId: other.customerId, points: 100, reason: 'Top up' });
    const second = (await redeem(other.h, coffee.id)).body.data;
    expect((await callTool(shop.merchant, 'list_gift_offers', { status: 'active' })).items.find((o: any) => o.id === coffee.id).stock).toBe(2);
    const cancelled = await callTool(shop.merchant, 'cancel_redemption', { redemptionId: second.id });
    expect(cancelled.status).toBe('CANCELLED');
    expect(await balanceOf(shop, other.customerId)).toBe(130);
    expect((await callTool(shop.merchant, 'list_gift_offers', { status: 'active' })).items.find((o: any) => o.id === coffee.id).stock).toBe(3);
    expect((await callTool(shop.merchant, 'list_redemptions', { status: 'CANCELLED' })).items.map((r: any) => r.id)).toEqual([second.id]);

    // Another company sees none of it.
    const elsewhere = await openShop('Other Gift Shop');
    expect((await http(`${P}/gifts/offers/${coffee.id}`, { headers: elsewhere.h })).status).toBe(404);
    expect((await toolError(elsewhere.merchant, 'update_gift_offer', { offerId: coffee.id, title: 'Mine' })).code).toBe('NOT_FOUND');
    expect((await toolError(elsewhere.merchant, 'mark_redemption_used', { code: given.body.data.code })).code).toBe('NOT_FOUND');
    // Bad input names the field.
    expect((await toolError(shop.merchant, 'create_gift_offer', { title: 'X', pointsCost: -1 })).details.field).toBe('pointsCost');
    expect((await toolError(shop.merchant, 'create_gift_offer', { title: 'X', pointsCost: 1, imageUrl: 'ftp://x' })).details.field).toBe('imageUrl');
    expect((await toolError(shop.merchant, 'update_gift_offer', { offerId: coffee.id, minTierId: '01900000-0000-7000-8000-000000000000' })).details.field).toBe(
      'minTierId',
    );
  });

  it('20 concurrent redemptions by a customer whose points cover 5 give exactly 5; 10 customers racing for a stock of 3 get exactly 3', async () => {
    const shop = await openShop('Gift Race Shop');
    const cake = await callTool(shop.merchant, 'create_gift_offer', { title: 'Cake', pointsCost: 10, status: 'active' });
    const me = await member(shop, 50);
    const mine = await Promise.all(Array.from({ length: 20 }, () => redeem(me.h, cake.id)));
    expect(mine.filter((r) => r.status === 201)).toHaveLength(5);
    for (const r of mine.filter((r) => r.status !== 201)) expect(r.body.error.details.reason).toBe('INSUFFICIENT_POINTS');
    expect(await balanceOf(shop, me.customerId)).toBe(0);

    const rare = await callTool(shop.merchant, 'create_gift_offer', { title: 'Rare', pointsCost: 1, stock: 3, status: 'active' });
    const racers = [];
    for (let i = 0; i < 10; i++) racers.push(await member(shop, 5));
    const raced = await Promise.all(racers.map((r) => redeem(r.h, rare.id)));
    expect(raced.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of raced.filter((r) => r.status !== 201)) expect(r.body.error.details.reason).toBe('OUT_OF_STOCK');
    expect((await callTool(shop.merchant, 'list_redemptions', { offerId: rare.id })).pagination.total).toBe(3);
    expect((await callTool(shop.merchant, 'list_gift_offers')).items.find((o: any) => o.id === rare.id).stock).toBe(0);
  });

  it('claims: single-use tokens (with or without signing in), free gifts for a signed-in customer, expiry after 30 days', async () => {
    const shop = await openShop('Claim Shop');
    const sample = await callTool(shop.merchant, 'create_gift_offer', { title: 'Sample', pointsCost: 0, status: 'active' });
    const paid = await callTool(shop.merchant, 'create_gift_offer', { title: 'Tote', pointsCost: 20, status: 'active' });
    const tokens = await callTool(shop.merchant, 'issue_gift_claims', { offerId: paid.id, recipients: ['a@example.test', 'b@example.test', 'c@example.test'] });
    expect(tokens.result.map((t: any) => t.recipient)).toEqual(['a@example.test', 'b@example.test', 'c@example.test']);
    const [a, b, c] = tokens.result.map((t: any) => t.token as string);

    const anonymous = await http(`${P}/gifts/claim`, { body: { claimToken: a }, headers: shop.h });
    expect(anonymous.status).toBe(201);
    expect(anonymous.body.data).toMatchObject({ offerId: paid.id, customerId: null, points: 0, status: 'ISSUED' });
    expect((await http(`${P}/gifts/claim`, { body: { claimToken: a }, headers: shop.h })).body.error).toMatchObject({
      code: 'CONFLICT',
      details: { reason: 'ALREADY_CLAIMED' },
    });
    const me = await member(shop, 0);
    const attached = await http(`${P}/gifts/claim`, { body: { claimToken: b }, headers: me.h });
    expect(attached.body.data).toMatchObject({ customerId: me.customerId, points: 0 });
    expect((await http(`${P}/gifts/claim`, { body: { claimToken: 'gft_nope' }, headers: shop.h })).status).toBe(404);
    // Another company's storefront does not know the token.
    const elsewhere = await openShop('Other Claim Shop');
    expect((await http(`${P}/gifts/claim`, { body: { claimToken: c }, headers: elsewhere.h })).status).toBe(404);
    // 31 days on, the last token has expired.
    const { app } = await testServer();
    const later = { ...app.platform.runtime, clock: new TestClock(Date.now() + 31 * 86_400_000) };
    await expect(claim(RequestContext.system(later, shop.company.companyId), { claimToken: c })).rejects.toMatchObject({
      extensions: { code: 'CONFLICT', reason: 'CLAIM_EXPIRED' },
    });

    const free = await http(`${P}/gifts/claim`, { body: { offerId: sample.id }, headers: me.h });
    expect(free.status).toBe(201);
    expect(free.body.data).toMatchObject({ offerId: sample.id, customerId: me.customerId, points: 0 });
    expect((await http(`${P}/gifts/claim`, { body: { offerId: paid.id }, headers: me.h })).body.error.details.field).toBe('offerId');
    expect((await http(`${P}/gifts/claim`, { body: { offerId: sample.id }, headers: shop.h })).body.error.details.field).toBe('offerId');
    expect((await http(`${P}/gifts/claim`, { body: {}, headers: shop.h })).body.error.details.field).toBe('claimToken');
    expect((await toolError(shop.merchant, 'issue_gift_claims', { offerId: paid.id })).details.field).toBe('count');
    expect((await http(`${P}/gifts/redemptions`, { headers: me.h })).body.data.items).toHaveLength(2);
  });
});
