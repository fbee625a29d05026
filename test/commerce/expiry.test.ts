import { describe, expect, it } from 'vitest';
import { lastMessage, uniqueEmail } from '../support/client.ts';
import { callTool } from '../support/mcp.ts';
import { jobsIn } from '../support/jobs.ts';
import { testServer } from '../support/server.ts';
import { TestClock } from '../../subgraphs/kernel/clock.ts';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import { commerceJobs } from '../../subgraphs/commerce/jobs.ts';
import { EXPIRE_ORDERS_QUEUE } from '../../subgraphs/commerce/services/orders.ts';
import { checkout, openShop, paymentStatus, product } from './shop.ts';

/** Runs the expiry job as the queue would, on a runtime whose clock stands `minutes` after now. */
async function expireAt(minutes: number, data: Record<string, unknown>) {
  const { app } = await testServer();
  const runtime = { ...app.platform.runtime, clock: new TestClock(Date.now() + minutes * 60_000) };
  await commerceJobs[EXPIRE_ORDERS_QUEUE].handler(RequestContext.system(runtime, (data.companyId as string) ?? null), data);
}

describe('unpaid orders expire', () => {
  it('after the payment window (30 minutes): EXPIRED, stock released, the payment canceled at the provider', async () => {
    const shop = await openShop('Expiry Shop');
    const lamp = await product(shop, { name: 'Lamp', price: '25', stock: 1 });
    const email = uniqueEmail('late');
    const order = (await checkout(shop, { items: [{ productId: lamp.id, quantity: 1 }], customer: { name: 'Lou', email }, paymentMethodId: 'sandbox' })).body
      .data;
    const expiresIn = new Date(order.expiresAt).getTime() - new Date(order.createdAt).getTime();
    expect(expiresIn).toBe(30 * 60_000);
    // Its expiry job is queued for that moment.
    const { app } = await testServer();
    const jobs = await jobsIn(app.platform.runtime.jobs, EXPIRE_ORDERS_QUEUE, { orderId: order.id });
    expect(jobs.map((job) => new Date(job.startAfter).getTime())).toEqual([new Date(order.expiresAt).getTime()]);

    await expireAt(29, { companyId: shop.company.companyId, orderId: order.id });
    expect((await callTool(shop.merchant, 'get_order', { orderId: order.id })).status).toBe('PENDING_PAYMENT');
    expect((await checkout(shop, { items: [{ productId: lamp.id, quantity: 1 }] })).body.error.code).toBe('INSUFFICIENT_STOCK');

    const since = Date.now();
    await expireAt(31, { companyId: shop.company.companyId, orderId: order.id });
    const expired = await callTool(shop.merchant, 'get_order', { orderId: order.id });
    expect(expired).toMatchObject({ status: 'EXPIRED', payment: { status: 'canceled', nextAction: null } });
    expect((await lastMessage(email, since)).subject).toMatch(/expired/);
    // The customer comes back too late: the provider's page no longer takes the payment.
    const page = order.payment.nextAction.redirectUrl;
    await fetch(page, { method: 'POST', body: new URLSearchParams({ action: 'pay' }), redirect: 'manual' });
    expect((await paymentStatus(shop, order.id, order.accessToken)).body.data).toMatchObject({ orderStatus: 'EXPIRED', paymentStatus: 'canceled' });
    // The lamp is free again.
    expect((await checkout(shop, { items: [{ productId: lamp.id, quantity: 1 }], paymentMethodId: 'manual' })).status).toBe(201);
    // A second run finds nothing to do; an order paid at the venue never expires.
    await expireAt(31, { companyId: shop.company.companyId, orderId: order.id });
    expect((await callTool(shop.merchant, 'get_order', { orderId: order.id })).status).toBe('EXPIRED');
  });

  it("the sweep expires a company's due orders, not those paid at the venue", async () => {
    const a = await openShop('Sweep A');
    const b = await openShop('Sweep B');
    const pa = await product(a, { name: 'A', price: '5', stock: 2 });
    const pb = await product(b, { name: 'B', price: '5', stock: 2 });
    const oa = (await checkout(a, { items: [{ productId: pa.id, quantity: 1 }], paymentMethodId: 'sandbox' })).body.data;
    const ob = (await checkout(b, { items: [{ productId: pb.id, quantity: 1 }], paymentMethodId: 'sandbox' })).body.data;
    const manual = (await checkout(b, { items: [{ productId: pb.id, quantity: 1 }], paymentMethodId: 'manual' })).body.data;
    // (Swept one company at a time here: other test files share the database.)
    await expireAt(45, { companyId: a.company.companyId });
    await expireAt(45, { companyId: b.company.companyId });
    expect((await callTool(a.merchant, 'get_order', { orderId: oa.id })).status).toBe('EXPIRED');
    expect((await callTool(b.merchant, 'get_order', { orderId: ob.id })).status).toBe('EXPIRED');
    expect((await callTool(b.merchant, 'get_order', { orderId: manual.id })).status).toBe('PENDING_PAYMENT');
  });
});
