import { describe, expect, it } from 'vitest';
import { http, lastMessage, uniqueEmail } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { callTool, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';
import { checkout, openShop, paymentStatus, product } from './shop.ts';

/** The hosted page's form, as a browser posts it (not JSON; outside /v6). */
async function press(redirectUrl: string, action: 'pay' | 'decline' | 'cancel') {
  const res = await fetch(redirectUrl, { method: 'POST', body: new URLSearchParams({ action }), redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') };
}

describe('sandbox payments', () => {
  it('pays on the hosted page: redirect back to returnUrl, the webhook pays the order once', async () => {
    const shop = await openShop('Pay Shop');
    const mug = await product(shop, { name: 'Mug', price: '15', stock: 3 });
    const email = uniqueEmail('payer');
    const res = await checkout(shop, {
      items: [{ productId: mug.id, quantity: 2 }],
      customer: { name: 'Pat', email },
      paymentMethodId: 'sandbox',
      returnUrl: 'https://shop.example.test/thanks?x=1',
    });
    expect(res.status).toBe(201);
    const order = res.body.data;
    expect(order).toMatchObject({
      status: 'PENDING_PAYMENT',
      payment: { status: 'requires_action', provider: 'sandbox', amount: { amount: '30.00', currency: 'EUR' } },
    });
    const { redirectUrl } = order.payment.nextAction;
    const { url } = await testServer();
    expect(redirectUrl.startsWith(`${url}/sandbox/pay/pi_sbx_`)).toBe(true);

    const page = await fetch(redirectUrl);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('30.00 EUR');
    for (const action of ['pay', 'decline', 'cancel']) expect(html).toContain(`value="${action}"`);

    const since = Date.now();
    const back = await press(redirectUrl, 'pay');
    expect(back.status).toBe(303);
    const location = new URL(back.location!);
    expect(`${location.origin}${location.pathname}`).toBe('https://shop.example.test/thanks');
    expect(location.searchParams.get('redirect_status')).toBe('succeeded');
    expect(location.searchParams.get('x')).toBe('1');

    // The customer's return (a status read) and the webhook race; the order is paid once.
    const status = await paymentStatus(shop, order.id, order.accessToken);
    expect(status.body.data).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'succeeded', nextAction: null });
    await eventually(async () => {
      const got = await callTool(shop.merchant, 'get_order', { orderId: order.id });
      expect(got).toMatchObject({ status: 'PAID', payment: { status: 'succeeded' } });
    });
    expect((await lastMessage(email, since)).subject).toMatch(/payment received/);
    // Pressing Pay again changes nothing.
    expect((await press(redirectUrl, 'pay')).status).toBe(303);
    expect(await (await fetch(redirectUrl)).text()).toContain('succeeded');
  });

  it('sandbox_success pays by webhook; sandbox_decline fails and can be paid on the page after all', async () => {
    const shop = await openShop('Pay Shop');
    const mug = await product(shop, { name: 'Mug', price: '15', stock: 3 });
    const ok = await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], paymentMethodId: 'sandbox_success' });
    // The provider settles it in the background: the answer may already see it succeeded.
    expect(['processing', 'succeeded']).toContain(ok.body.data.payment.status);
    await eventually(async () =>
      expect((await paymentStatus(shop, ok.body.data.id, ok.body.data.accessToken)).body.data).toMatchObject({
        orderStatus: 'PAID',
        paymentStatus: 'succeeded',
      }),
    );

    const declined = await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], paymentMethodId: 'sandbox_decline' });
    expect(declined.status).toBe(201);
    expect(declined.body.data.payment).toMatchObject({ status: 'requires_payment_method', failureCode: 'card_declined' });
    const status = await paymentStatus(shop, declined.body.data.id, declined.body.data.accessToken);
    expect(status.body.data).toMatchObject({ orderStatus: 'PENDING_PAYMENT', paymentStatus: 'requires_payment_method', failureCode: 'card_declined' });

    // Declined on the hosted page, then paid there.
    const hosted = await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], paymentMethodId: 'sandbox_requires_action' });
    const page = hosted.body.data.payment.nextAction.redirectUrl;
    expect((await press(page, 'decline')).status).toBe(200);
    await eventually(async () =>
      expect((await paymentStatus(shop, hosted.body.data.id, hosted.body.data.accessToken)).body.data).toMatchObject({
        paymentStatus: 'requires_payment_method',
        failureCode: 'card_declined',
      }),
    );
    await press(page, 'pay');
    await eventually(async () => expect((await paymentStatus(shop, hosted.body.data.id, hosted.body.data.accessToken)).body.data.orderStatus).toBe('PAID'));
  });

  it('refunds through the provider, in part and then the rest', async () => {
    const shop = await openShop('Refund Shop');
    const mug = await product(shop, { name: 'Mug', price: '40', stock: 3 });
    // An unpaid order has nothing to refund.
    const unpaid = (await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], paymentMethodId: 'sandbox' })).body.data;
    expect((await toolError(shop.merchant, 'refund_order', { orderId: unpaid.id })).code).toBe('INVALID_STATE_TRANSITION');
    const order = (await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], paymentMethodId: 'sandbox_success' })).body.data;
    await eventually(async () => expect((await callTool(shop.merchant, 'get_order', { orderId: order.id })).status).toBe('PAID'));
    const part = await callTool(shop.merchant, 'refund_order', { orderId: order.id, amount: '15' });
    expect(part).toMatchObject({ status: 'PARTIALLY_REFUNDED', refunded: { amount: '15.00' }, payment: { refunded: { amount: '15.00' } } });
    expect((await toolError(shop.merchant, 'refund_order', { orderId: order.id, amount: '30' })).details.field).toBe('amount');
    const rest = await callTool(shop.merchant, 'refund_order', { orderId: order.id });
    expect(rest).toMatchObject({ status: 'REFUNDED', refunded: { amount: '40.00' } });
    expect((await toolError(shop.merchant, 'refund_order', { orderId: order.id })).code).toBe('INVALID_STATE_TRANSITION');
  });

  it('the hosted page of an unknown payment is 404', async () => {
    const { url } = await testServer();
    expect((await fetch(`${url}/sandbox/pay/pi_sbx_nope`)).status).toBe(404);
    expect((await http('/sandbox/pay/pi_sbx_nope')).status).toBe(404);
  });
});
