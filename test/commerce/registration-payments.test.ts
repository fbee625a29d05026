import { describe, expect, it } from 'vitest';
import { http, lastMessage, uniqueEmail } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { callTool } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';
import { TestClock } from '../../subgraphs/kernel/clock.ts';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import { commerceJobs } from '../../subgraphs/commerce/jobs.ts';
import { REGISTRATION_WINDOW_QUEUE } from '../../subgraphs/commerce/services/registration-payments.ts';
import { openShop, P, type Shop } from './shop.ts';

const inDays = (d: number, h = 10) => new Date(Date.UTC(2030, 0, 1 + d, h)).toISOString();

/** Runs the registration window job as the queue would, on a runtime whose clock stands `minutes` after now. */
async function windowsAt(minutes: number, data: Record<string, unknown>) {
  const { app } = await testServer();
  const runtime = { ...app.platform.runtime, clock: new TestClock(Date.now() + minutes * 60_000) };
  await commerceJobs[REGISTRATION_WINDOW_QUEUE].handler(RequestContext.system(runtime, (data.companyId as string) ?? null), data);
}

async function paidEvent(shop: Shop, capacity = 3) {
  return callTool(shop.merchant, 'create_event', {
    title: `Tasting ${Math.random().toString(36).slice(2, 7)}`,
    startsAt: inDays(5),
    endsAt: inDays(5, 12),
    price: '20',
    capacity,
    status: 'published',
  });
}

function register(shop: Shop, eventId: string, body: Record<string, unknown> = {}) {
  return http(`${P}/event-registrations`, { body: { eventId, name: 'Rita', email: uniqueEmail('rita'), quantity: 2, ...body }, headers: shop.h });
}

function paymentIntent(shop: Shop, registrationId: string, body?: Record<string, unknown>) {
  return http(`${P}/event-registrations/${registrationId}/payment-intent`, { body: body ?? {}, headers: shop.h });
}

const accessOf = async (shop: Shop, registrationId: string) => (await http(`${P}/event-registrations/${registrationId}/access`, { headers: shop.h })).body.data;

describe('paid event registrations', () => {
  it('pays on the sandbox page; content confirms the registration through commerce.payment.succeeded', async () => {
    const shop = await openShop('Tasting Room');
    const event = await paidEvent(shop);
    const email = uniqueEmail('taster');
    const reg = (await register(shop, event.id, { email })).body.data;
    expect(reg).toMatchObject({ status: 'PENDING_PAYMENT', amount: { amount: '40.00', currency: 'EUR' } });

    const intent = await paymentIntent(shop, reg.id, { paymentMethodId: 'sandbox', returnUrl: 'https://venue.example.test/registered' });
    expect(intent.status).toBe(200);
    expect(intent.body.data).toMatchObject({
      registrationId: reg.id,
      status: 'requires_action',
      paymentMethodId: 'sandbox',
      amount: { amount: '40.00', currency: 'EUR' },
      failureCode: null,
    });
    const { redirectUrl } = intent.body.data.nextAction;
    expect(await (await fetch(redirectUrl)).text()).toContain('40.00 EUR');
    // Asking again resumes the same payment rather than opening a second one.
    expect((await paymentIntent(shop, reg.id, { paymentMethodId: 'sandbox', returnUrl: 'https://venue.example.test/registered' })).body.data.id).toBe(
      intent.body.data.id,
    );
    expect((await accessOf(shop, reg.id)).reason).toBe('PAYMENT_PENDING');

    const since = Date.now();
    const back = await fetch(redirectUrl, { method: 'POST', body: new URLSearchParams({ action: 'pay' }), redirect: 'manual' });
    expect(new URL(back.headers.get('location')!).searchParams.get('redirect_status')).toBe('succeeded');
    // The webhook pays it; content hears of it and confirms.
    await eventually(async () => expect(await accessOf(shop, reg.id)).toMatchObject({ granted: true, status: 'CONFIRMED' }));
    await eventually(async () => expect((await lastMessage(email, since)).subject).toMatch(/you are registered/));
    const registrations = await callTool(shop.merchant, 'list_event_registrations', { eventId: event.id });
    expect(registrations.items).toMatchObject([{ id: reg.id, status: 'CONFIRMED' }]);
    // Paid: no second payment, and the window's end changes nothing.
    const again = await paymentIntent(shop, reg.id);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', details: { field: 'id' } });
    await windowsAt(31, { companyId: shop.company.companyId, registrationId: reg.id });
    expect((await accessOf(shop, reg.id)).status).toBe('CONFIRMED');
  });

  it('an unpaid registration expires after 30 minutes and frees its seats; its payment is canceled', async () => {
    const shop = await openShop('Small Room');
    const event = await paidEvent(shop, 2);
    const reg = (await register(shop, event.id, { quantity: 2 })).body.data;
    const intent = (await paymentIntent(shop, reg.id, { paymentMethodId: 'sandbox' })).body.data;
    // Sold out while the seats are held.
    expect((await register(shop, event.id, { quantity: 1 })).body.error.details.reason).toBe('SOLD_OUT');

    await windowsAt(29, { companyId: shop.company.companyId, registrationId: reg.id });
    expect((await accessOf(shop, reg.id)).status).toBe('PENDING_PAYMENT');
    await windowsAt(31, { companyId: shop.company.companyId });
    await eventually(async () => expect(await accessOf(shop, reg.id)).toMatchObject({ granted: false, status: 'CANCELLED', reason: 'REGISTRATION_CANCELLED' }));
    // The seats are free again; paying the old intent no longer goes through.
    expect((await register(shop, event.id, { quantity: 2 })).status).toBe(201);
    await fetch(intent.nextAction.redirectUrl, { method: 'POST', body: new URLSearchParams({ action: 'pay' }), redirect: 'manual' });
    expect(await (await fetch(intent.nextAction.redirectUrl)).text()).toContain('canceled');
    const late = await paymentIntent(shop, reg.id);
    expect(late.status).toBe(409);
  });

  it('a declined card keeps the registration pending; sandbox_success pays it', async () => {
    const shop = await openShop('Decline Room');
    const event = await paidEvent(shop);
    const reg = (await register(shop, event.id)).body.data;
    const declined = await paymentIntent(shop, reg.id, { paymentMethodId: 'sandbox_decline' });
    expect(declined.body.data).toMatchObject({ status: 'requires_payment_method', failureCode: 'card_declined' });
    const ok = await paymentIntent(shop, reg.id, { paymentMethodId: 'sandbox_success' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.id).not.toBe(declined.body.data.id);
    await eventually(async () => expect((await accessOf(shop, reg.id)).status).toBe('CONFIRMED'));
  });

  it('refuses bad input, free and unknown registrations, and another company’s', async () => {
    const shop = await openShop('Strict Room');
    const other = await openShop('Other Room');
    const event = await paidEvent(shop);
    const reg = (await register(shop, event.id)).body.data;
    const bad = await paymentIntent(shop, 'not-an-id');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('id');
    expect((await paymentIntent(shop, reg.id, { paymentMethodId: 'manual' })).body.error.details.field).toBe('paymentMethodId');
    expect((await paymentIntent(shop, reg.id, { paymentMethodId: 'bitcoin' })).body.error.details.field).toBe('paymentMethodId');
    expect((await paymentIntent(shop, reg.id, { returnUrl: 'javascript:alert(1)' })).body.error.details.field).toBe('returnUrl');
    expect((await paymentIntent(shop, '01900000-0000-7000-8000-000000000000')).status).toBe(404);
    // Another company's storefront does not see it.
    expect((await paymentIntent(other, reg.id)).status).toBe(404);
    // A free registration has nothing to pay.
    const free = await callTool(shop.merchant, 'create_event', { title: 'Free Talk', startsAt: inDays(6), endsAt: inDays(6, 12), status: 'published' });
    const freeReg = (await register(shop, free.id)).body.data;
    expect(freeReg.status).toBe('CONFIRMED');
    expect((await paymentIntent(shop, freeReg.id)).status).toBe(409);
  });
});
