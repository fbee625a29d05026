import { describe, expect, it } from 'vitest';
import { http, lastMessage, uniqueEmail } from '../support/client.ts';
import { bearer, signInCustomer } from '../support/fixtures.ts';
import { callTool, toolError } from '../support/mcp.ts';
import { checkout, openShop, P, paymentStatus, product } from './shop.ts';

const ADDRESS = { line1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', country: 'DE' };

describe('shipping and payment methods', () => {
  it('are created, changed and listed by the merchant; the storefront sees the active ones', async () => {
    const shop = await openShop();
    const flat = await callTool(shop.merchant, 'create_shipping_method', { name: 'Standard', kind: 'FLAT_RATE', price: '4.90' });
    expect(flat).toMatchObject({ kind: 'FLAT_RATE', price: { amount: '4.90', currency: 'EUR' }, freeAbove: null, needsAddress: true, active: true });
    const free = await callTool(shop.merchant, 'create_shipping_method', {
      name: 'Free over 50',
      kind: 'FREE_ABOVE',
      price: '5',
      freeAbove: '50',
      position: 1,
    });
    expect(free.freeAbove).toEqual({ amount: '50.00', currency: 'EUR' });
    const pickup = await callTool(shop.merchant, 'create_shipping_method', { name: 'Pickup', kind: 'LOCAL_PICKUP', position: 2 });
    expect(pickup).toMatchObject({ price: { amount: '0.00' }, needsAddress: false });

    expect((await toolError(shop.merchant, 'create_shipping_method', { name: 'No threshold', kind: 'FREE_ABOVE', price: '5' })).details.field).toBe(
      'freeAbove',
    );
    expect((await toolError(shop.merchant, 'create_shipping_method', { name: 'No price', kind: 'FLAT_RATE' })).details.field).toBe('price');
    expect((await toolError(shop.merchant, 'create_shipping_method', { name: 'Standard', kind: 'FLAT_RATE', price: '1' })).code).toBe('CONFLICT');
    expect((await toolError(shop.merchant, 'create_shipping_method', { name: 'Odd', kind: 'BY_PIGEON', price: '1' })).details.field).toBe('kind');

    await callTool(shop.merchant, 'update_shipping_method', { shippingMethodId: pickup.id, active: false });
    const all = (await callTool(shop.merchant, 'list_shipping_methods')).items;
    expect(all.map((m: any) => [m.name, m.active])).toEqual([
      ['Standard', true],
      ['Free over 50', true],
      ['Pickup', false],
    ]);
    const storefront = await http(`${P}/shop/shipping-methods`, { headers: shop.h });
    expect(storefront.status).toBe(200);
    expect(storefront.body.data.items.map((m: any) => m.name)).toEqual(['Standard', 'Free over 50']);
    expect(storefront.body.data.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1, hasNextPage: false });
    expect((await http(`${P}/shop/shipping-methods?search=free`, { headers: shop.h })).body.data.items.map((m: any) => m.name)).toEqual(['Free over 50']);
    expect((await callTool(shop.merchant, 'list_shipping_methods', { page: 2, limit: 2 })).items.map((m: any) => m.name)).toEqual(['Pickup']);

    // Another company's method is not found.
    const other = await openShop('Other Shop');
    expect((await toolError(other.merchant, 'update_shipping_method', { shippingMethodId: flat.id, active: false })).code).toBe('NOT_FOUND');

    const methods = await http(`${P}/shop/payment-methods`, { headers: shop.h });
    expect(methods.body.data.items.map((m: any) => m.id)).toEqual(['sandbox', 'sandbox_success', 'sandbox_decline', 'sandbox_requires_action', 'manual']);
    expect(methods.body.data.pagination).toEqual({ page: 1, limit: 20, total: 5, totalPages: 1, hasNextPage: false });
    expect((await http(`${P}/shop/payment-methods?limit=2&page=3`, { headers: shop.h })).body.data).toEqual({
      items: [expect.objectContaining({ id: 'manual' })],
      pagination: { page: 3, limit: 2, total: 5, totalPages: 3, hasNextPage: false },
    });
    expect((await http(`${P}/shop/payment-methods?limit=101`, { headers: shop.h })).body.error.details.field).toBe('limit');
    expect((await callTool(shop.merchant, 'list_payment_methods')).items.find((m: any) => m.id === 'manual')).toMatchObject({ kind: 'MANUAL', provider: null });
  });
});

describe('checkout', () => {
  it('prices the order on the server: lines, tax, shipping and total; stock is reserved', async () => {
    const shop = await openShop();
    const mug = await product(shop, { name: 'Mug', price: '12.50', stock: 10, taxRate: '19' });
    const tee = await product(shop, { name: 'Tee', price: '20', stock: 5, taxRate: '7' });
    const ship = await callTool(shop.merchant, 'create_shipping_method', { name: 'Parcel', kind: 'FREE_ABOVE', price: '4.90', freeAbove: '100' });
    const email = uniqueEmail('buyer');
    const since = Date.now();
    const res = await checkout(shop, {
      items: [
        { productId: mug.id, quantity: 2 },
        { variantId: tee.variantId, quantity: 1 },
        { productId: mug.id, quantity: 1 },
      ],
      customer: { name: 'Bea Buyer', email },
      shippingMethodId: ship.id,
      shippingAddress: ADDRESS,
      paymentMethodId: 'manual',
    });
    expect(res.status).toBe(201);
    const order = res.body.data;
    expect(order).toMatchObject({
      number: 1,
      status: 'PENDING_PAYMENT',
      channel: 'online',
      customerName: 'Bea Buyer',
      customerEmail: email,
      paymentMethodId: 'manual',
      pricesIncludeTax: false,
      payment: null,
    });
    expect(order.accessToken).toMatch(/^ord_/);
    // 2 × 12.50 + 20 + 12.50 = 57.50 net; tax 19% of 25 + 7% of 20 + 19% of 12.50 = 4.75 + 1.40 + 2.38 (rounded per line).
    expect(order.lines.map((l: any) => [l.name, l.quantity, l.unitPrice.amount, l.tax.amount, l.total.amount])).toEqual([
      ['Mug', 2, '12.50', '4.75', '25.00'],
      ['Tee', 1, '20.00', '1.40', '20.00'],
      ['Mug', 1, '12.50', '2.38', '12.50'],
    ]);
    expect([order.subtotal.amount, order.shipping.amount, order.tax.amount, order.discount.amount, order.total.amount]).toEqual([
      '57.50',
      '4.90',
      '8.53',
      '0.00',
      '70.93',
    ]);
    expect(order.total.currency).toBe('EUR');
    expect(order.shippingAddress).toMatchObject({ city: 'Berlin', country: 'DE' });
    expect((await lastMessage(email, since)).subject).toMatch(/order received/);

    const status = await paymentStatus(shop, order.id, order.accessToken);
    expect(status.body.data).toMatchObject({
      orderId: order.id,
      orderStatus: 'PENDING_PAYMENT',
      paymentStatus: null,
      amount: { amount: '70.93', currency: 'EUR' },
      nextAction: null,
    });

    // Reserved: only 7 mugs are left to order.
    const tooMany = await checkout(shop, {
      items: [
        { variantId: tee.variantId, quantity: 1 },
        { productId: mug.id, quantity: 5 },
        { productId: mug.id, quantity: 3 },
      ],
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { field: 'items[1]', available: 7 } });
    // Nothing of the refused order was reserved: the tee's last four are still there.
    expect((await checkout(shop, { items: [{ variantId: tee.variantId, quantity: 4 }], paymentMethodId: 'manual' })).status).toBe(201);
    expect((await checkout(shop, { items: [{ variantId: tee.variantId, quantity: 1 }] })).body.error).toMatchObject({
      code: 'INSUFFICIENT_STOCK',
      details: { field: 'items[0]', available: 0 },
    });
  });

  it('refuses bad input, naming the field or the line', async () => {
    const shop = await openShop();
    const mug = await product(shop, { name: 'Mug', price: '10', stock: 3 });
    const ship = await callTool(shop.merchant, 'create_shipping_method', { name: 'Parcel', kind: 'FLAT_RATE', price: '5' });
    const other = await openShop('Other Shop');
    const foreign = await product(other, { name: 'Foreign', price: '1', stock: 3 });
    const cases: [Record<string, unknown>, string][] = [
      [{ items: [] }, 'items'],
      [{ items: [{ quantity: 1 }] }, 'items[0].productId'],
      [{ items: [{ productId: mug.id, quantity: 0 }] }, 'items[0].quantity'],
      [
        {
          items: [
            { productId: mug.id, quantity: 1 },
            { productId: foreign.id, quantity: 1 },
          ],
        },
        'items[1].productId',
      ],
      [{ items: [{ variantId: foreign.variantId, quantity: 1 }] }, 'items[0].variantId'],
      [{ items: [{ productId: mug.id, quantity: 1 }], shippingMethodId: ship.id }, 'shippingAddress'],
      [
        { items: [{ productId: mug.id, quantity: 1 }], shippingMethodId: ship.id, shippingAddress: { ...ADDRESS, country: 'Germany' } },
        'shippingAddress.country',
      ],
      [{ items: [{ productId: mug.id, quantity: 1 }], paymentMethodId: 'cheque' }, 'paymentMethodId'],
      [{ items: [{ productId: mug.id, quantity: 1 }], customer: { name: 'No contact' } }, 'customer.email'],
      [{ items: [{ productId: mug.id, quantity: 1 }], customer: { name: 'X', email: 'not-an-email' } }, 'customer.email'],
    ];
    for (const [body, field] of cases) {
      const res = await checkout(shop, body);
      expect(res.status, field).toBe(400);
      expect(res.body.error.details.field, JSON.stringify(body)).toBe(field);
    }
    const noCustomer = await http(`${P}/shop/orders`, { body: { items: [{ productId: mug.id, quantity: 1 }] }, headers: shop.h });
    expect(noCustomer.status).toBe(400);
    expect(noCustomer.body.error.details.field).toBe('customer');
  });

  it("gives a signed-in customer their orders, newest first, and nobody else's", async () => {
    const shop = await openShop();
    const mug = await product(shop, { name: 'Mug', price: '10', stock: 20 });
    const me = await signInCustomer(shop.company.companyId);
    const first = await http(`${P}/shop/orders`, {
      body: { items: [{ productId: mug.id, quantity: 1 }], paymentMethodId: 'manual' },
      headers: { ...shop.h, ...bearer(me.token) },
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ customerId: me.customerId, customerEmail: me.email, accessToken: null });
    const second = await http(`${P}/shop/orders`, {
      body: { items: [{ productId: mug.id, quantity: 2 }], paymentMethodId: 'manual' },
      headers: { ...shop.h, ...bearer(me.token) },
    });
    const guest = await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], paymentMethodId: 'manual' });

    const mine = await http(`${P}/shop/orders?limit=1`, { headers: { ...shop.h, ...bearer(me.token) } });
    expect(mine.status).toBe(200);
    expect(mine.body.data.items.map((o: any) => o.id)).toEqual([second.body.data.id]);
    expect(mine.body.data.pagination).toMatchObject({ total: 2, hasNextPage: true });
    expect((await http(`${P}/shop/orders`, { headers: shop.h })).status).toBe(401);

    // Payment status: the owner with their token, a guest with the order's token; anyone else 404.
    expect((await paymentStatus(shop, first.body.data.id, undefined, bearer(me.token))).status).toBe(200);
    expect((await paymentStatus(shop, guest.body.data.id, guest.body.data.accessToken)).status).toBe(200);
    expect((await paymentStatus(shop, guest.body.data.id)).status).toBe(404);
    expect((await paymentStatus(shop, guest.body.data.id, 'ord_wrong')).status).toBe(404);
    expect((await paymentStatus(shop, guest.body.data.id, undefined, bearer(me.token))).status).toBe(404);
    const stranger = await signInCustomer(shop.company.companyId);
    expect((await paymentStatus(shop, first.body.data.id, undefined, bearer(stranger.token))).status).toBe(404);
    const other = await openShop('Other Shop');
    expect((await paymentStatus(other, guest.body.data.id, guest.body.data.accessToken)).status).toBe(404);
  });

  it('pays a zero-total order at once', async () => {
    const shop = await openShop();
    const sample = await product(shop, { name: 'Sample', price: '0', stock: 2 });
    const res = await checkout(shop, { items: [{ productId: sample.id, quantity: 1 }] });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'PAID', total: { amount: '0.00' }, payment: null });
    expect(res.body.data.paidAt).toBeTruthy();
  });
});

describe('merchant order tools', () => {
  it('create_shop_order for a customer, then mark paid, fulfil; illegal moves are refused', async () => {
    const shop = await openShop();
    const mug = await product(shop, { name: 'Mug', price: '8', stock: 5 });
    const customer = await signInCustomer(shop.company.companyId);
    const order = await callTool(shop.merchant, 'create_shop_order', { accountId: customer.customerId, items: [{ productId: mug.id, quantity: 2 }] });
    expect(order).toMatchObject({
      channel: 'pos',
      status: 'PENDING_PAYMENT',
      customerId: customer.customerId,
      paymentMethodId: 'manual',
      total: { amount: '16.00' },
      expiresAt: null,
    });

    const unknown = await toolError(shop.merchant, 'create_shop_order', {
      accountId: '01900000-0000-7000-8000-000000000000',
      items: [{ productId: mug.id, quantity: 1 }],
    });
    expect(unknown).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'accountId' } });
    const other = await openShop('Other Shop');
    const foreignCustomer = await signInCustomer(other.company.companyId);
    expect(
      (await toolError(shop.merchant, 'create_shop_order', { accountId: foreignCustomer.customerId, items: [{ productId: mug.id, quantity: 1 }] })).details
        .field,
    ).toBe('accountId');

    expect((await toolError(shop.merchant, 'fulfil_order', { orderId: order.id })).code).toBe('INVALID_STATE_TRANSITION');
    const since = Date.now();
    const paid = await callTool(shop.merchant, 'mark_order_paid', { orderId: order.id });
    expect(paid).toMatchObject({ status: 'PAID' });
    expect((await lastMessage(customer.email, since)).subject).toMatch(/payment received/);
    const again = await toolError(shop.merchant, 'mark_order_paid', { orderId: order.id });
    expect(again).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { from: 'PAID', to: 'PAID' } });
    expect((await toolError(shop.merchant, 'cancel_order', { orderId: order.id })).code).toBe('INVALID_STATE_TRANSITION');
    expect((await callTool(shop.merchant, 'fulfil_order', { orderId: order.id })).status).toBe('FULFILLED');

    const got = await callTool(shop.merchant, 'get_order', { orderId: order.id });
    expect(got).toMatchObject({ id: order.id, status: 'FULFILLED', lines: [{ name: 'Mug', quantity: 2 }] });
    expect((await toolError(other.merchant, 'get_order', { orderId: order.id })).code).toBe('NOT_FOUND');
    expect((await toolError(other.merchant, 'mark_order_paid', { orderId: order.id })).code).toBe('NOT_FOUND');
  });

  it('cancel_order releases the stock; list_orders filters by status, customer and time', async () => {
    const shop = await openShop();
    const lamp = await product(shop, { name: 'Lamp', price: '30', stock: 1 });
    const customer = await signInCustomer(shop.company.companyId);
    const order = await callTool(shop.merchant, 'create_shop_order', { accountId: customer.customerId, items: [{ productId: lamp.id, quantity: 1 }] });
    expect((await checkout(shop, { items: [{ productId: lamp.id, quantity: 1 }] })).body.error.code).toBe('INSUFFICIENT_STOCK');
    const cancelled = await callTool(shop.merchant, 'cancel_order', { orderId: order.id, reason: 'Changed their mind' });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancelReason: 'Changed their mind' });
    expect((await toolError(shop.merchant, 'cancel_order', { orderId: order.id })).code).toBe('INVALID_STATE_TRANSITION');
    const guest = await checkout(shop, { items: [{ productId: lamp.id, quantity: 1 }], paymentMethodId: 'manual' });
    expect(guest.status).toBe(201);

    const all = await callTool(shop.merchant, 'list_orders', {});
    expect(all.items.map((o: any) => o.id)).toEqual([guest.body.data.id, order.id]);
    expect((await callTool(shop.merchant, 'list_orders', { status: 'CANCELLED' })).items.map((o: any) => o.id)).toEqual([order.id]);
    expect((await callTool(shop.merchant, 'list_orders', { customerId: customer.customerId })).items.map((o: any) => o.id)).toEqual([order.id]);
    const page = await callTool(shop.merchant, 'list_orders', { limit: 1, offset: 1 });
    expect(page.items.map((o: any) => o.id)).toEqual([order.id]);
    expect((await callTool(shop.merchant, 'list_orders', { from: new Date(Date.now() + 60_000).toISOString() })).items).toEqual([]);
    expect((await toolError(shop.merchant, 'list_orders', { status: 'LOST' })).details.field).toBe('status');
  });
});
