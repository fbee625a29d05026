import { describe, expect, it } from 'vitest';
import { signInCustomer } from '../support/fixtures.ts';
import { callTool, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';
import { TestClock } from '../../subgraphs/kernel/clock.ts';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import { commerceJobs } from '../../subgraphs/commerce/jobs.ts';
import { EXPIRE_ORDERS_QUEUE } from '../../subgraphs/commerce/services/orders.ts';
import { checkout, openShop, product, type Shop } from './shop.ts';

const hours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

function promotion(shop: Shop, fields: Record<string, unknown>) {
  return callTool(shop.merchant, 'create_promotion', {
    name: 'Promo',
    type: 'percentage',
    value: '10',
    bookingEnabled: true,
    onlineEnabled: true,
    posEnabled: true,
    ...fields,
  });
}

const validate = (shop: Shop, promotionCode: string, channel: string, amount: number | string) =>
  callTool(shop.merchant, 'validate_promotion', { promotionCode, channel, amount });

describe('promotion tools', () => {
  it('creates, lists, gets, updates and deactivates promotions; codes are upper-cased and unique per company', async () => {
    const shop = await openShop('Promo Shop');
    const created = await promotion(shop, {
      name: 'Summer',
      code: '  summer15 ',
      value: '15',
      usageLimit: 100,
      perCustomerLimit: 1,
      minimumAmount: '20',
      description: 'Summer sale',
      endsAt: hours(24 * 30),
    });
    expect(created).toMatchObject({
      code: 'SUMMER15',
      type: 'percentage',
      value: '15.00',
      usageLimit: 100,
      perCustomerLimit: 1,
      minimumAmount: { amount: '20.00', currency: 'EUR' },
      usedCount: 0,
      remainingUses: 100,
      active: true,
    });
    expect(created.id).toBeTruthy();
    const fixed = await promotion(shop, { name: 'Five off', code: 'FIVE', type: 'fixed', value: '5.00', onlineEnabled: false });
    expect(fixed).toMatchObject({ type: 'fixed', value: '5.00', onlineEnabled: false, usageLimit: null, remainingUses: null });

    const dup = await toolError(shop.merchant, 'create_promotion', {
      name: 'Again',
      code: 'Summer15',
      type: 'fixed',
      value: '1',
      bookingEnabled: true,
      onlineEnabled: true,
      posEnabled: true,
    });
    expect(dup).toMatchObject({ code: 'CONFLICT', details: { field: 'code' } });
    // Another company may use the same code.
    const other = await openShop('Other Promo Shop');
    expect((await promotion(other, { code: 'SUMMER15' })).code).toBe('SUMMER15');

    const list = await callTool(shop.merchant, 'list_promotions', { limit: 10 });
    expect(list.items.map((p: any) => p.code)).toEqual(['FIVE', 'SUMMER15']);
    expect(list.pagination).toMatchObject({ total: 2, limit: 10 });
    expect((await callTool(shop.merchant, 'get_promotion', { promotionId: created.id })).name).toBe('Summer');

    const updated = await callTool(shop.merchant, 'update_promotion', {
      promotionId: fixed.id,
      type: 'percentage',
      value: '20',
      onlineEnabled: true,
      usageLimit: 3,
    });
    expect(updated).toMatchObject({ type: 'percentage', value: '20.00', onlineEnabled: true, usageLimit: 3, name: 'Five off' });
    const off = await callTool(shop.merchant, 'deactivate_promotion', { promotionId: fixed.id });
    expect(off.active).toBe(false);
    expect((await callTool(shop.merchant, 'list_promotions', { active: false })).items.map((p: any) => p.id)).toEqual([fixed.id]);
    expect((await callTool(shop.merchant, 'list_promotions', { active: true })).items.map((p: any) => p.id)).toEqual([created.id]);
    expect((await callTool(shop.merchant, 'update_promotion', { promotionId: fixed.id, active: true })).active).toBe(true);

    // Another company's promotion is not found.
    expect((await toolError(other.merchant, 'get_promotion', { promotionId: created.id })).code).toBe('NOT_FOUND');
    expect((await toolError(other.merchant, 'deactivate_promotion', { promotionId: created.id })).code).toBe('NOT_FOUND');
  });

  it('refuses bad input naming the field', async () => {
    const shop = await openShop('Strict Promo Shop');
    const bad = async (fields: Record<string, unknown>) =>
      (
        await toolError(shop.merchant, 'create_promotion', {
          name: 'P',
          code: 'OK10',
          type: 'percentage',
          value: '10',
          bookingEnabled: true,
          onlineEnabled: true,
          posEnabled: true,
          ...fields,
        })
      ).details.field;
    expect(await bad({ value: '0' })).toBe('value');
    expect(await bad({ value: '101' })).toBe('value');
    expect(await bad({ value: 'ten' })).toBe('value');
    expect(await bad({ type: 'fixed', value: '0' })).toBe('value');
    expect(await bad({ type: 'fixed', value: '1.999' })).toBe('value');
    expect(await bad({ type: 'bogus' })).toBe('type');
    expect(await bad({ code: 'no spaces!' })).toBe('code');
    expect(await bad({ code: ' ' })).toBe('code');
    expect(await bad({ usageLimit: 0 })).toBe('usageLimit');
    expect(await bad({ perCustomerLimit: -1 })).toBe('perCustomerLimit');
    expect(await bad({ minimumAmount: '-5' })).toBe('minimumAmount');
    expect(await bad({ startsAt: hours(5), endsAt: hours(2) })).toBe('endsAt');
    expect(await bad({ bookingEnabled: false, onlineEnabled: false, posEnabled: false })).toBe('bookingEnabled');
    expect((await toolError(shop.merchant, 'get_promotion', { promotionId: 'nope' })).details.field).toBe('promotionId');
    expect((await toolError(shop.merchant, 'validate_promotion', { promotionCode: 'X', channel: 'fax', amount: 10 })).details.field).toBe('channel');
    expect((await toolError(shop.merchant, 'validate_promotion', { promotionCode: 'X', channel: 'online', amount: -1 })).details.field).toBe('amount');
    expect((await callTool(shop.merchant, 'list_promotions')).items).toEqual([]);
  });

  it('validate_promotion answers each errorCode in order, and the discount in major units, half up', async () => {
    const shop = await openShop('Validate Shop');
    await promotion(shop, { code: 'PCT15', value: '15' });
    expect(await validate(shop, 'pct15', 'online', 19.99)).toMatchObject({
      isValid: true,
      discountAmount: { amount: '3.00', currency: 'EUR' },
      errorCode: null,
      promotion: { code: 'PCT15' },
    });
    expect((await validate(shop, 'PCT15', 'booking', '49.90')).discountAmount.amount).toBe('7.49');
    await promotion(shop, { code: 'TENOFF', type: 'fixed', value: '10' });
    expect((await validate(shop, 'TENOFF', 'pos', '4.50')).discountAmount.amount).toBe('4.50');
    await promotion(shop, { code: 'SHIPFREE', type: 'free_shipping', value: '0' });
    expect(await validate(shop, 'SHIPFREE', 'online', 30)).toMatchObject({ isValid: true, discountAmount: { amount: '0.00' } });

    expect(await validate(shop, 'NOPE', 'online', 10)).toMatchObject({
      isValid: false,
      errorCode: 'PROMOTION_NOT_FOUND',
      discountAmount: { amount: '0.00' },
      promotion: null,
    });
    const inactive = await promotion(shop, { code: 'OFF', minimumAmount: '100' });
    await callTool(shop.merchant, 'deactivate_promotion', { promotionId: inactive.id });
    // Inactive comes before the minimum, though both fail.
    expect((await validate(shop, 'OFF', 'online', 10)).errorCode).toBe('INACTIVE');
    await promotion(shop, { code: 'LATER', startsAt: hours(2), endsAt: hours(4) });
    expect((await validate(shop, 'LATER', 'online', 10)).errorCode).toBe('NOT_STARTED');
    await promotion(shop, { code: 'GONE', startsAt: hours(-4), endsAt: hours(-2) });
    expect((await validate(shop, 'GONE', 'online', 10)).errorCode).toBe('EXPIRED');
    await promotion(shop, { code: 'SHOPONLY', bookingEnabled: false, posEnabled: false, minimumAmount: '50' });
    expect((await validate(shop, 'SHOPONLY', 'booking', 10)).errorCode).toBe('CHANNEL_NOT_ENABLED');
    expect((await validate(shop, 'SHOPONLY', 'online', 10)).errorCode).toBe('MINIMUM_NOT_MET');
    expect((await validate(shop, 'SHOPONLY', 'online', 50)).isValid).toBe(true);
    const once = await promotion(shop, { code: 'ONCE', usageLimit: 1 });
    const mug = await product(shop, { name: 'Mug', price: '20', stock: 5 });
    expect((await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], promotionCode: 'once', paymentMethodId: 'manual' })).status).toBe(201);
    expect((await validate(shop, 'ONCE', 'online', 10)).errorCode).toBe('USAGE_LIMIT_REACHED');
    expect((await callTool(shop.merchant, 'get_promotion', { promotionId: once.id })).remainingUses).toBe(0);
  });
});

describe('promotion codes on orders', () => {
  it('discounts a storefront order, shows it on the order, lowers the tax in proportion; a bad code writes nothing', async () => {
    const shop = await openShop('Discount Shop');
    const mug = await product(shop, { name: 'Mug', price: '19.99', stock: 5, taxRate: '20' });
    await promotion(shop, { code: 'PCT15', value: '15' });
    const res = await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], promotionCode: ' pct15', paymentMethodId: 'manual' });
    expect(res.status).toBe(201);
    // 19.99 net, 3.00 off: 16.99 net, tax 20% of it (4.00 × 16.99 / 19.99 = 3.40), total 20.39.
    expect(res.body.data).toMatchObject({
      promotionCode: 'PCT15',
      subtotal: { amount: '19.99' },
      discount: { amount: '3.00' },
      tax: { amount: '3.40' },
      total: { amount: '20.39' },
    });

    for (const [code, errorCode] of [
      ['NOPE', 'PROMOTION_NOT_FOUND'],
      ['BIGSPEND', 'MINIMUM_NOT_MET'],
      ['POSONLY', 'CHANNEL_NOT_ENABLED'],
    ] as const) {
      if (code === 'BIGSPEND') await promotion(shop, { code, minimumAmount: '100' });
      if (code === 'POSONLY') await promotion(shop, { code, onlineEnabled: false });
      const refused = await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], promotionCode: code, paymentMethodId: 'manual' });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'PROMOTION_INVALID', details: { field: 'promotionCode', errorCode } });
    }
    // The refused orders reserved no stock and took no number.
    expect((await callTool(shop.merchant, 'get_product', { productId: mug.id })).variants[0].stock).toBe(4);
    expect((await callTool(shop.merchant, 'list_orders')).pagination.total).toBe(1);
  });

  it('free shipping zeroes the shipping line; create_shop_order uses the pos channel; per-customer limits hold', async () => {
    const shop = await openShop('Shipping Promo Shop');
    const lamp = await product(shop, { name: 'Lamp', price: '30', stock: 10 });
    const parcel = await callTool(shop.merchant, 'create_shipping_method', { name: 'Parcel', kind: 'FLAT_RATE', price: '4.90' });
    await promotion(shop, { code: 'SHIPFREE', type: 'free_shipping', value: '0', perCustomerLimit: 1 });
    const address = { line1: 'Main St 1', city: 'Paris', postalCode: '75001', country: 'FR' };
    const customer = { name: 'Flo', email: 'Flo.Promo@Example.com' };
    const order = await checkout(shop, {
      items: [{ productId: lamp.id, quantity: 1 }],
      shippingMethodId: parcel.id,
      shippingAddress: address,
      customer,
      promotionCode: 'SHIPFREE',
      paymentMethodId: 'manual',
    });
    expect(order.body.data).toMatchObject({
      shipping: { amount: '0.00' },
      discount: { amount: '0.00' },
      total: { amount: '30.00' },
      promotionCode: 'SHIPFREE',
    });
    // The same guest (by email, in any case) has used it.
    const again = await checkout(shop, {
      items: [{ productId: lamp.id, quantity: 1 }],
      shippingMethodId: parcel.id,
      shippingAddress: address,
      customer: { name: 'Flo', email: 'flo.promo@example.com' },
      promotionCode: 'SHIPFREE',
      paymentMethodId: 'manual',
    });
    expect(again.body.error).toMatchObject({ code: 'PROMOTION_INVALID', details: { errorCode: 'CUSTOMER_LIMIT_REACHED' } });

    await promotion(shop, { code: 'COUNTER', type: 'fixed', value: '5', onlineEnabled: false });
    const member = await signInCustomer(shop.company.companyId);
    const pos = await callTool(shop.merchant, 'create_shop_order', {
      accountId: member.customerId,
      items: [{ productId: lamp.id, quantity: 2 }],
      promotionCode: 'counter',
    });
    expect(pos).toMatchObject({ channel: 'pos', promotionCode: 'COUNTER', discount: { amount: '5.00' }, total: { amount: '55.00' } });
    await promotion(shop, { code: 'WEBONLY', posEnabled: false });
    const refused = await toolError(shop.merchant, 'create_shop_order', {
      accountId: member.customerId,
      items: [{ productId: lamp.id, quantity: 1 }],
      promotionCode: 'WEBONLY',
    });
    expect(refused).toMatchObject({ code: 'PROMOTION_INVALID', details: { field: 'promotionCode', errorCode: 'CHANNEL_NOT_ENABLED' } });
  });

  it('a cancelled or expired order gives its use back', async () => {
    const shop = await openShop('Release Shop');
    const mug = await product(shop, { name: 'Mug', price: '10', stock: 10 });
    const once = await promotion(shop, { code: 'ONCE', usageLimit: 1 });
    const first = (await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], promotionCode: 'ONCE', paymentMethodId: 'manual' })).body.data;
    expect(
      (await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], promotionCode: 'ONCE', paymentMethodId: 'manual' })).body.error.details.errorCode,
    ).toBe('USAGE_LIMIT_REACHED');
    await callTool(shop.merchant, 'cancel_order', { orderId: first.id, reason: 'Changed mind' });
    expect((await callTool(shop.merchant, 'get_promotion', { promotionId: once.id })).usedCount).toBe(0);
    // A second cancel changes nothing (the order is already cancelled).
    await toolError(shop.merchant, 'cancel_order', { orderId: first.id });
    expect((await callTool(shop.merchant, 'get_promotion', { promotionId: once.id })).usedCount).toBe(0);

    // Taken again by an online payment that is never made: expiry gives it back.
    const unpaid = (await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], promotionCode: 'ONCE', paymentMethodId: 'sandbox' })).body.data;
    expect(unpaid.discount.amount).toBe('1.00');
    expect((await callTool(shop.merchant, 'get_promotion', { promotionId: once.id })).usedCount).toBe(1);
    const { app } = await testServer();
    const later = { ...app.platform.runtime, clock: new TestClock(Date.now() + 31 * 60_000) };
    await commerceJobs[EXPIRE_ORDERS_QUEUE].handler(RequestContext.system(later, shop.company.companyId), {
      companyId: shop.company.companyId,
      orderId: unpaid.id,
    });
    expect((await callTool(shop.merchant, 'get_order', { orderId: unpaid.id })).status).toBe('EXPIRED');
    expect((await callTool(shop.merchant, 'get_promotion', { promotionId: once.id })).usedCount).toBe(0);
  });

  it('100 concurrent orders with a code limited to 10 uses: exactly 10 carry the discount, 90 are refused', async () => {
    const shop = await openShop('Promo Race Shop');
    const items = await Promise.all(Array.from({ length: 4 }, (_, i) => product(shop, { name: `Item ${i}`, price: '10', stock: 1000 })));
    const limited = await promotion(shop, { code: 'TEN', usageLimit: 10 });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        checkout(shop, { items: [{ productId: items[i % 4].id, quantity: 1 }], promotionCode: 'TEN', paymentMethodId: 'manual' }),
      ),
    );
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(10);
    for (const r of ok) expect(r.body.data.discount.amount).toBe('1.00');
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(90);
    for (const r of refused) expect(r.body.error).toMatchObject({ code: 'PROMOTION_INVALID', details: { errorCode: 'USAGE_LIMIT_REACHED' } });
    expect(await callTool(shop.merchant, 'get_promotion', { promotionId: limited.id })).toMatchObject({ usedCount: 10, remainingUses: 0 });
    expect((await callTool(shop.merchant, 'list_orders', { limit: 100 })).pagination.total).toBe(10);
  });
});
