import { describe, expect, it } from 'vitest';
import { http, uniqueEmail } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { jobStates } from '../support/jobs.ts';
import { callTool } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';
import { WEBHOOK_QUEUE } from '../../subgraphs/commerce/services/payments.ts';
import { sandboxWebhookSecret } from '../../subgraphs/commerce/services/payments/sandbox.ts';
import { signPayload } from '../../subgraphs/commerce/services/payments/signature.ts';
import { checkout, openShop, paymentStatus, product } from './shop.ts';

const CALLBACK = '/webhooks/payments/sandbox';

/** A "succeeded" event for a payment, as the sandbox provider sends it. */
function succeeded(eventId: string, intentId: string, paymentId: string, companyId: string) {
  return JSON.stringify({
    id: eventId,
    type: 'payment_intent.succeeded',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: intentId, status: 'succeeded', metadata: { paymentId, companyId }, last_payment_error: null } },
  });
}

async function post(body: string, signature: string | undefined) {
  const { url } = await testServer();
  const res = await fetch(`${url}${CALLBACK}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'sandbox-signature': signature } : {}) },
    body,
  });
  return { status: res.status, body: await res.json() };
}

async function sql(text: string, params: unknown[] = []) {
  const { app } = await testServer();
  return app.platform.runtime.db.orm.em.getConnection().execute<any[]>(text, params);
}

/** What the webhook queue did with each delivery of a provider's event. */
async function webhookJobs(eventId: string) {
  const { app } = await testServer();
  return jobStates(app.platform.runtime.jobs, WEBHOOK_QUEUE, { event: { id: eventId } });
}

async function pendingOrder() {
  const shop = await openShop('Webhook Shop');
  const mug = await product(shop, { name: 'Mug', price: '10', stock: 5 });
  const email = uniqueEmail('hook');
  const order = (
    await checkout(shop, { items: [{ productId: mug.id, quantity: 1 }], customer: { name: 'Hugo', email }, paymentMethodId: 'sandbox_requires_action' })
  ).body.data;
  const intentId = new URL(order.payment.nextAction.redirectUrl).pathname.split('/').pop()!;
  return { shop, order, intentId, email };
}

describe('payment webhooks', () => {
  it('refuses a bad, missing or stale signature with 400 and changes nothing', async () => {
    const { shop, order, intentId } = await pendingOrder();
    const { config } = await testServer();
    const secret = sandboxWebhookSecret(config);
    const body = succeeded(`evt_bad_${order.id}`, intentId, order.payment.id, shop.company.companyId);
    const now = Math.floor(Date.now() / 1000);
    expect((await post(body, undefined)).status).toBe(400);
    expect((await post(body, signPayload('not-the-secret', body, now))).status).toBe(400);
    expect((await post(body, signPayload(secret, body, now - 301))).status).toBe(400);
    expect((await post(`${body} `, signPayload(secret, body, now))).status).toBe(400);
    expect((await post('not json', signPayload(secret, 'not json', now))).status).toBe(400);
    expect(await sql('select * from commerce.webhook_event where payment_id = ?', [order.payment.id])).toEqual([]);
    const after = await callTool(shop.merchant, 'get_order', { orderId: order.id });
    expect(after).toMatchObject({ status: 'PENDING_PAYMENT', payment: { status: 'requires_action' } });
  });

  it('applies the same succeeded event once, delivered three times and together with the return', async () => {
    const { shop, order, intentId, email } = await pendingOrder();
    const { config } = await testServer();
    const body = succeeded(`evt_dup_${order.id}`, intentId, order.payment.id, shop.company.companyId);
    const signature = signPayload(sandboxWebhookSecret(config), body, Math.floor(Date.now() / 1000));
    const deliveries = await Promise.all([
      post(body, signature),
      post(body, signature),
      post(body, signature),
      paymentStatus(shop, order.id, order.accessToken),
    ]);
    expect(deliveries.slice(0, 3).map((d) => d.status)).toEqual([200, 200, 200]);
    await eventually(async () => expect((await callTool(shop.merchant, 'get_order', { orderId: order.id })).status).toBe('PAID'));
    await eventually(async () => expect(await webhookJobs(`evt_dup_${order.id}`)).toEqual(['completed', 'completed', 'completed']));
    expect(await sql('select event_id from commerce.webhook_event where payment_id = ?', [order.payment.id])).toHaveLength(1);
    const paidMessages = await eventually(async () => {
      const res = await http(`/dev/outbox?to=${encodeURIComponent(email)}`);
      const items = res.body.data.items.filter((m: any) => /payment received/.test(m.subject));
      expect(items.length).toBeGreaterThan(0);
      return items;
    });
    expect(paidMessages).toHaveLength(1);
    const [{ paid_at }] = await sql('select paid_at from commerce.shop_order where id = ?', [order.id]);
    // The customer's return afterwards: still paid, paid once.
    expect((await paymentStatus(shop, order.id, order.accessToken)).body.data).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'succeeded' });
    expect((await sql('select paid_at from commerce.shop_order where id = ?', [order.id]))[0].paid_at).toEqual(paid_at);
  });

  it("an event naming another company's payment changes nothing", async () => {
    const a = await pendingOrder();
    const b = await pendingOrder();
    const { config } = await testServer();
    // Signed, but its company does not own the payment: recorded nowhere, applied nowhere.
    const body = succeeded(`evt_cross_${a.order.id}`, a.intentId, a.order.payment.id, b.shop.company.companyId);
    expect((await post(body, signPayload(sandboxWebhookSecret(config), body, Math.floor(Date.now() / 1000)))).status).toBe(200);
    await eventually(async () => expect(await webhookJobs(`evt_cross_${a.order.id}`)).toEqual(['completed']));
    expect((await callTool(a.shop.merchant, 'get_order', { orderId: a.order.id })).status).toBe('PENDING_PAYMENT');
  });
});
