import { describe, expect, it } from 'vitest';
import { http } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, signInCustomer } from '../support/fixtures.ts';
import { callTool, toolError } from '../support/mcp.ts';
import { dayFromNow, setupSalon } from '../support/booking.ts';
import { campaignReaches, emailConfig, openBusiness, register, segmentOf, send } from './audience.ts';

const future = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('campaigns', () => {
  it('are created as DRAFT or SCHEDULED, checked field by field', async () => {
    const b = await openBusiness('Drafts Studio');
    const people = await register(b, 2);
    const segment = await segmentOf(b, people);
    const draft = await callTool(b.merchant, 'create_campaign', {
      name: 'Spring',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: segment.id,
      channelConfig: emailConfig,
    });
    expect(draft).toMatchObject({
      status: 'DRAFT',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: segment.id,
      scheduledAt: null,
      channelConfig: emailConfig,
      deliveries: { total: 0 },
    });
    const at = future(60);
    const scheduled = await callTool(b.merchant, 'create_campaign', {
      name: 'Later',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: segment.id,
      channelConfig: emailConfig,
      scheduledAt: at,
      status: 'SCHEDULED',
    });
    expect(scheduled).toMatchObject({ status: 'SCHEDULED' });
    expect(new Date(scheduled.scheduledAt).toISOString()).toBe(at);

    const base = { name: 'Bad', channel: 'email', recipientSource: 'segment', segmentId: segment.id, channelConfig: emailConfig };
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 'SCHEDULED', scheduledAt: future(-1) }, 'scheduledAt'],
      [{ status: 'SCHEDULED' }, 'scheduledAt'],
      [{ status: 'SENT' }, 'status'],
      [{ channelConfig: { subject: 'Hi {{nickname}}', html: '<p>x</p>' } }, 'channelConfig.subject'],
      [{ channelConfig: { subject: 'Hi', html: '<p>{{firstName</p>' } }, 'channelConfig.html'],
      [{ channelConfig: { html: '<p>x</p>' } }, 'channelConfig.subject'],
      [{ channel: 'sms', channelConfig: { subject: 'x' } }, 'channelConfig.body'],
      [{ channel: 'whatsapp', channelConfig: { templateName: 'spring_offer' } }, 'channelConfig.language'],
      [{ segmentId: '00000000-0000-4000-8000-000000000000' }, ''],
      [{ recipientSource: 'everyone' }, 'recipientSource'],
      [{ channelConfig: { ...emailConfig, replyTo: 'not-an-email' } }, 'channelConfig.replyTo'],
    ];
    for (const [change, field] of cases) {
      const error = await toolError(b.merchant, 'create_campaign', { ...base, ...change });
      if (field) expect({ change, code: error.code, field: error.details?.field }).toEqual({ change, code: 'BAD_USER_INPUT', field });
      else expect(error.code).toBe('NOT_FOUND');
    }
    const whatsapp = await callTool(b.merchant, 'create_campaign', {
      ...base,
      channel: 'whatsapp',
      channelConfig: { templateName: 'spring_offer', language: 'en', parameters: ['{{firstName}}', '20%'] },
    });
    expect(whatsapp.channelConfig).toMatchObject({ templateName: 'spring_offer', language: 'en', parameters: ['{{firstName}}', '20%'], subject: null });
  });

  it('send through REST (202, SENDING), exactly one delivery each, then SENT; a second send and a delete answer 409', async () => {
    const b = await openBusiness('Sender Studio');
    const people = await register(b, 12);
    const segment = await segmentOf(b, people);
    const campaign = await callTool(b.merchant, 'create_campaign', {
      name: 'News',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: segment.id,
      channelConfig: emailConfig,
    });

    const started = await send(b, campaign.id);
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ success: true, data: { id: campaign.id, status: 'SENDING', deliveries: { total: 12 } } });
    const again = await send(b, campaign.id);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { from: 'SENDING', to: 'SENDING' } });
    expect((await toolError(b.merchant, 'update_campaign', { campaignId: campaign.id, name: 'Renamed' })).code).toBe('CONFLICT');

    const sent = await campaignReaches(b, campaign.id, 'SENT');
    expect(sent.deliveries).toMatchObject({ total: 12, sent: 12, pending: 0, failed: 0 });
    expect(sent.finishedAt).not.toBeNull();
    const deliveries = await callTool(b.merchant, 'list_campaign_deliveries', { campaignId: campaign.id, limit: 100 });
    expect(deliveries.items.map((d: any) => d.customerId).sort()).toEqual(people.map((p) => p.id).sort());
    expect(deliveries.items.every((d: any) => d.status === 'SENT' && d.attempts === 1 && d.sentAt)).toBe(true);

    expect(await toolError(b.merchant, 'delete_campaign', { campaignId: campaign.id })).toMatchObject({ code: 'CONFLICT', details: { status: 'SENT' } });
    expect((await toolError(b.merchant, 'cancel_campaign', { campaignId: campaign.id })).code).toBe('INVALID_STATE_TRANSITION');
    expect((await send(b, campaign.id)).status).toBe(409);
    // Another company sees none of it.
    const other = await openBusiness('Other Studio');
    expect((await toolError(other.merchant, 'get_campaign', { campaignId: campaign.id })).code).toBe('NOT_FOUND');
    expect((await send(other, campaign.id)).status).toBe(404);
    expect((await toolError(other.merchant, 'list_campaign_deliveries', { campaignId: campaign.id })).code).toBe('NOT_FOUND');
    // The route needs the merchant's key.
    expect((await http(`/v6/merchant/campaigns/${campaign.id}/send`, { method: 'POST' })).status).toBe(401);
    expect((await http(`/v6/merchant/campaigns/not-an-id/send`, { method: 'POST', headers: bearer(b.company.apiKey) })).body.error).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
  });

  it('move through their states: pause, resume, cancel, delete; illegal moves are 409 INVALID_STATE_TRANSITION', async () => {
    const b = await openBusiness('States Studio');
    const people = await register(b, 3);
    const segment = await segmentOf(b, people);
    const create = () =>
      callTool(b.merchant, 'create_campaign', { name: 'S', channel: 'email', recipientSource: 'segment', segmentId: segment.id, channelConfig: emailConfig });
    const draft = await create();
    expect(await toolError(b.merchant, 'pause_campaign', { campaignId: draft.id })).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { from: 'DRAFT', to: 'PAUSED' },
    });
    expect((await toolError(b.merchant, 'resume_campaign', { campaignId: draft.id })).code).toBe('INVALID_STATE_TRANSITION');
    const scheduled = await callTool(b.merchant, 'update_campaign', { campaignId: draft.id, status: 'SCHEDULED', scheduledAt: future(30) });
    expect(scheduled.status).toBe('SCHEDULED');
    const paused = await callTool(b.merchant, 'pause_campaign', { campaignId: draft.id });
    expect(paused).toMatchObject({ status: 'PAUSED', statusReason: expect.any(String) });
    // Resuming one that never started starts it.
    expect((await callTool(b.merchant, 'resume_campaign', { campaignId: draft.id })).status).toBe('SENDING');
    await campaignReaches(b, draft.id, 'SENT');

    const cancelled = await create();
    expect((await callTool(b.merchant, 'cancel_campaign', { campaignId: cancelled.id })).status).toBe('CANCELLED');
    expect((await send(b, cancelled.id)).status).toBe(409);
    expect(await callTool(b.merchant, 'delete_campaign', { campaignId: cancelled.id })).toEqual({ id: cancelled.id, deleted: true });
    expect((await toolError(b.merchant, 'get_campaign', { campaignId: cancelled.id })).code).toBe('NOT_FOUND');

    const back = await create();
    await callTool(b.merchant, 'update_campaign', { campaignId: back.id, status: 'SCHEDULED', scheduledAt: future(30) });
    expect((await callTool(b.merchant, 'update_campaign', { campaignId: back.id, status: 'DRAFT' })).status).toBe('DRAFT');
    const list = await callTool(b.merchant, 'list_campaigns', { status: 'SENT' });
    expect(list.items.map((c: any) => c.id)).toEqual([draft.id]);
    expect(list.pagination).toMatchObject({ total: 1, page: 1 });
  });

  it('send a test to up to 5 addresses without recording deliveries', async () => {
    const b = await openBusiness('Test Send Studio');
    const segment = await segmentOf(b, await register(b, 1));
    const campaign = await callTool(b.merchant, 'create_campaign', {
      name: 'T',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: segment.id,
      channelConfig: emailConfig,
    });
    expect(await callTool(b.merchant, 'send_test_campaign', { campaignId: campaign.id, to: ['Me@Example.test'] })).toEqual({
      campaignId: campaign.id,
      sentTo: ['me@example.test'],
    });
    expect(
      (
        await toolError(b.merchant, 'send_test_campaign', {
          campaignId: campaign.id,
          to: ['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test', 'e@x.test', 'f@x.test'],
        })
      ).details.field,
    ).toBe('to');
    expect((await toolError(b.merchant, 'send_test_campaign', { campaignId: campaign.id, to: ['nope'] })).details.field).toBe('to[0]');
    expect((await callTool(b.merchant, 'get_campaign', { campaignId: campaign.id })).deliveries.total).toBe(0);
  });
});

describe('segments', () => {
  it('static and rule segments, counted and previewed; a rule segment is evaluated when sending starts, not at creation', async () => {
    const b = await openBusiness('Segment Studio');
    const people = await register(b, 4, { label: 'Seg' });
    const all = await segmentOf(b, people, 'Everyone');
    expect(all).toMatchObject({ name: 'Everyone', kind: 'static', rules: null });
    const vip = await callTool(b.merchant, 'create_customer_segment', { name: 'VIP', rules: { tag: 'VIP' } });
    expect(vip).toMatchObject({ kind: 'rules', rules: { tag: 'vip', minOrders: null }, customerIds: null, memberCount: 0 });
    expect(await callTool(b.merchant, 'tag_customers', { customerIds: [people[0].id], add: ['vip'] })).toEqual({ result: 1 });
    const campaign = await callTool(b.merchant, 'create_campaign', {
      name: 'VIP night',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: vip.id,
      channelConfig: emailConfig,
    });
    // Tagged after the campaign was written, before it is sent.
    await callTool(b.merchant, 'tag_customers', { customerIds: [people[1].id, people[2].id], add: ['vip'] });
    await callTool(b.merchant, 'tag_customers', { customerIds: [people[2].id], remove: ['vip'] });
    const preview = await callTool(b.merchant, 'preview_segment', { segmentId: vip.id });
    expect(preview.count).toBe(2);
    expect(preview.customers.map((c: any) => c.customerId).sort()).toEqual([people[0].id, people[1].id].sort());
    expect((await send(b, campaign.id)).status).toBe(202);
    const sent = await campaignReaches(b, campaign.id, 'SENT');
    expect(sent.deliveries).toMatchObject({ total: 2, sent: 2 });

    const list = await callTool(b.merchant, 'list_customer_segments', {});
    expect(list.items.map((s: any) => [s.name, s.memberCount])).toEqual([
      ['VIP', 2],
      ['Everyone', 4],
    ]);
    const renamed = await callTool(b.merchant, 'update_customer_segment', {
      segmentId: vip.id,
      name: 'Regulars',
      rules: { createdSince: new Date(Date.now() - 3600_000).toISOString(), reachableBy: 'email' },
    });
    expect(renamed).toMatchObject({ name: 'Regulars', rules: { tag: null, reachableBy: 'email' }, memberCount: 4 });
    const noPhone = await callTool(b.merchant, 'create_customer_segment', { name: 'Texters', rules: { reachableBy: 'sms' } });
    expect(noPhone.memberCount).toBe(0);

    const errors: [Record<string, unknown>, string][] = [
      [{ name: 'X' }, 'rules'],
      [{ name: 'X', customerIds: [people[0].id], rules: { tag: 'a' } }, 'rules'],
      [{ name: 'X', rules: {} }, 'rules'],
      [{ name: 'X', rules: { tag: '!!' } }, 'rules.tag'],
      [{ name: 'X', rules: { minTotalSpent: '-5' } }, 'rules.minTotalSpent'],
      [{ name: 'X', rules: { minOrders: 0 } }, 'rules.minOrders'],
      [{ name: 'X', customerIds: ['nope'] }, 'customerIds[0]'],
      [{ name: ' ', rules: { tag: 'a' } }, 'name'],
    ];
    for (const [input, field] of errors)
      expect({ input, field: (await toolError(b.merchant, 'create_customer_segment', input)).details?.field }).toEqual({ input, field });
    expect(await toolError(b.merchant, 'create_customer_segment', { name: 'everyone', rules: { tag: 'a' } })).toMatchObject({
      code: 'CONFLICT',
      details: { field: 'name' },
    });
    expect((await toolError(b.merchant, 'tag_customers', { customerIds: [people[0].id] })).details.field).toBe('add');
    const other = await openBusiness('Other Segments');
    expect((await toolError(other.merchant, 'preview_segment', { segmentId: vip.id })).code).toBe('NOT_FOUND');
    expect(await callTool(other.merchant, 'tag_customers', { customerIds: [people[0].id], add: ['x'] })).toEqual({ result: 0 });
  });

  it('rules on bookings and paid orders follow booking’s and commerce’s events', async () => {
    const salon = await setupSalon();
    const b = { company: salon.company, merchant: salon.merchant, h: { 'x-company-id': salon.company.companyId } };
    const [buyer, booker] = await register(b, 2, { label: 'Rule' });
    const seg = (rules: Record<string, unknown>) => callTool(b.merchant, 'create_customer_segment', { name: `R ${JSON.stringify(rules)}`, rules });
    const spenders = await seg({ minTotalSpent: '10', minOrders: 1 });
    expect(spenders.memberCount).toBe(0);
    // A paid order reaches campaigns as commerce.order.paid.
    const product = await callTool(b.merchant, 'create_product', { name: 'Candle', price: '12.50', status: 'active' });
    const buyerToken = (await signInCustomer(b.company.companyId, buyer.email)).token;
    const order = await http('/v6/customer-portal/shop/orders', {
      body: { items: [{ productId: product.id, quantity: 1 }], paymentMethodId: 'manual' },
      headers: { ...b.h, ...bearer(buyerToken) },
    });
    expect(order.status).toBe(201);
    await callTool(b.merchant, 'mark_order_paid', { orderId: order.body.data.id });
    const previewOf = async (id: string) => (await callTool(b.merchant, 'preview_segment', { segmentId: id })).customers.map((c: any) => c.customerId);
    await eventually(async () => expect(await previewOf(spenders.id)).toEqual([buyer.id]), { tries: 300 });
    // A booking reaches campaigns as booking.created.
    const since = new Date(Date.now() - 3600_000).toISOString();
    const booked = await seg({ bookedSince: since });
    const notBooked = await seg({ notBookedSince: since });
    expect([booked.memberCount, notBooked.memberCount]).toEqual([0, 2]);
    const slots = await http(`/v6/customer-portal/services/${salon.service.id}/slots?date=${dayFromNow(3)}`, { headers: b.h });
    const slot = slots.body.data.items[0];
    const bookerToken = (await signInCustomer(b.company.companyId, booker.email)).token;
    const booking = await http('/v6/customer-portal/bookings/guest', {
      body: { serviceId: salon.service.id, occurrenceStart: slot.start, occurrenceEnd: slot.end, customerName: booker.name, customerPhone: '+15550100201' },
      headers: { ...b.h, ...bearer(bookerToken) },
    });
    expect(booking.body.error ?? null).toBeNull();
    await eventually(async () => expect(await previewOf(booked.id)).toEqual([booker.id]), { tries: 300 });
    expect(await previewOf(notBooked.id)).toEqual([buyer.id]);
  });
});
