import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { uniqueEmail } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { topologies, type Topology } from '../support/topology.ts';

/**
 * A representative part of the suite on both topologies: the same flows through the same HTTP
 * entry points (REST, MCP, GraphQL) of the embedded router and of the distributed one, whose
 * subgraphs are processes of their own reached over HTTP. Each flow checks what it must on each,
 * and both must tell the same story.
 */
describe.runIf(inject('databaseUrl'))('the main flows on the embedded and the distributed topology', () => {
  let both: Topology[];
  beforeAll(async () => {
    both = await topologies();
  });

  /** A flow run on each topology in turn, for a company of its own; what each saw. */
  async function onBoth<T>(flow: (t: Topology, shop: Shop) => Promise<T>): Promise<T[]> {
    const seen: T[] = [];
    for (const t of both) {
      const { companyId, apiKey } = await t.signupCompany(`Flows ${t.name}`);
      seen.push(await flow(t, { companyId, apiKey, merchant: await t.mcp(apiKey), h: { 'x-company-id': companyId } }));
    }
    return seen;
  }

  it('sign-in: organisation signup by emailed code, a customer by OTP, the token checked and refreshed, the customer read through GraphQL', async () => {
    const [embedded, distributed] = await onBoth(async (t, shop) => {
      const me = await t.signInCustomer(shop.companyId);
      const valid = await t.http('/v6/customer-portal/auth/validate-token', { body: {}, headers: bearer(me.token) });
      expect(valid.body.data.customer).toMatchObject({ id: me.customerId, email: me.email });
      const refreshed = await t.http('/v6/customer-portal/auth/refresh', { body: {}, headers: bearer(me.token) });
      expect(refreshed.status).toBe(200);
      // The old token ended with the refresh; the new one works.
      expect((await t.http('/v6/customer-portal/auth/validate-token', { body: {}, headers: bearer(me.token) })).status).toBe(401);
      const current = await gql(t, '{ currentCustomer { email } }', {}, bearer(refreshed.body.data.token));
      expect(current.currentCustomer.email).toBe(me.email);
      const wrong = await t.http('/v6/customer-portal/auth/otp/verify', { body: { email: me.email, code: '000000' }, headers: shop.h });
      return { refreshed: Object.keys(refreshed.body.data).sort(), wrong: { status: wrong.status, code: wrong.body.error.code } };
    });
    expect(distributed).toEqual(embedded);
    expect(distributed.wrong).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it('booking: a service listing its staff, the slots their hours give, a booking that gets the staff member and takes the slot, cancelled within the policy', async () => {
    const [embedded, distributed] = await onBoth(async (t, shop) => {
      const staff = await tool(shop.merchant, 'create_staff_member', { name: 'Dina' });
      for (let day = 0; day < 7; day++)
        await tool(shop.merchant, 'set_staff_availability', { memberId: staff.id, dayOfWeek: day, startTime: '09:00', endTime: '12:00' });
      // The walk-through's call (docs/guides/walk-throughs.md): staff listed, requiresStaff left out.
      const service = await tool(shop.merchant, 'create_service', {
        name: 'Haircut',
        durationMinutes: 60,
        price: '49.00',
        capacity: 1,
        staffIds: [staff.id],
        minimumNoticeMinutes: 0,
        cancellationPolicy: { hoursBefore: 24, refundPercent: 100 },
      });
      expect(service.requiresStaff).toBe(true);
      const date = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
      const slots = async () => (await t.http(`/v6/customer-portal/services/${service.id}/slots?date=${date}`, { headers: shop.h })).body.data.items;
      const before = await slots();
      // Staff hours, 09:00 to 12:00 in the company's zone: three one-hour slots, each with Dina.
      expect(before.map((s: any) => s.staff.map((m: any) => m.name))).toEqual([['Dina'], ['Dina'], ['Dina']]);
      const me = await t.signInCustomer(shop.companyId);
      const booked = await t.http('/v6/customer-portal/bookings/guest', {
        body: { serviceId: service.id, occurrenceStart: before[0].start, occurrenceEnd: before[0].end, customerName: 'Cy', customerPhone: '+4915550001234' },
        headers: { ...shop.h, ...bearer(me.token) },
      });
      expect(booked.status).toBe(201);
      expect(booked.body.data.staff).toMatchObject({ id: staff.id, name: 'Dina' });
      const after = await slots();
      expect(after.map((s: any) => s.start)).toEqual(before.slice(1).map((s: any) => s.start));
      const again = await t.http('/v6/customer-portal/bookings/guest', {
        body: { serviceId: service.id, occurrenceStart: before[0].start, occurrenceEnd: before[0].end, customerName: 'Di', customerPhone: '+4915550001235' },
        headers: shop.h,
      });
      const mine = (await t.http('/v6/customer-portal/bookings', { headers: { ...shop.h, ...bearer(me.token) } })).body.data;
      const cancelled = await t.http(`/v6/customer-portal/bookings/${booked.body.data.id}/cancel`, { body: {}, headers: { ...shop.h, ...bearer(me.token) } });
      expect(cancelled.status).toBe(200);
      return {
        slots: before.length,
        booked: { status: booked.body.data.status, staff: booked.body.data.staff.name, price: booked.body.data.price },
        taken: { status: again.status, code: again.body.error?.code },
        mine: (mine.items ?? mine).map((b: any) => b.service?.name ?? b.serviceName),
        cancelled: cancelled.body.data.status,
        freed: (await slots()).length,
      };
    });
    expect(distributed).toEqual(embedded);
    expect(distributed).toMatchObject({ slots: 3, taken: { status: 409, code: 'SLOT_TAKEN' }, cancelled: 'CANCELLED', freed: 3 });
  });

  it('checkout and loyalty: an order paid on the sandbox page, stock taken, points earned on payment and adjusted by the merchant, seen by the customer', async () => {
    const [embedded, distributed] = await onBoth(async (t, shop) => {
      await tool(shop.merchant, 'set_loyalty_rules', { pointsPerCurrencyUnit: '2' });
      const lamp = await tool(shop.merchant, 'create_product', { name: 'Lamp', price: '12.50', status: 'active', trackInventory: true, stock: 3 });
      const me = await t.signInCustomer(shop.companyId);
      const order = await t.http('/v6/customer-portal/shop/orders', {
        body: { items: [{ productId: lamp.id, quantity: 2 }], paymentMethodId: 'sandbox' },
        headers: { ...shop.h, ...bearer(me.token) },
      });
      expect(order.status).toBe(201);
      expect(order.body.data).toMatchObject({ status: 'PENDING_PAYMENT', total: { amount: '25.00' } });
      // The sandbox's hosted page is commerce's own route, which the router serves or forwards.
      const page = new URL(order.body.data.payment.nextAction.redirectUrl);
      expect(await (await fetch(`${t.url}${page.pathname}`)).text()).toContain('25.00');
      expect((await fetch(`${t.url}${page.pathname}`, { method: 'POST', body: new URLSearchParams({ action: 'pay' }), redirect: 'manual' })).status).toBe(200);
      // The customer's own order: read with their token (a guest's would take the order's accessToken).
      const status = await t.http(`/v6/customer-portal/shop/orders/${order.body.data.id}/payment-status`, { headers: { ...shop.h, ...bearer(me.token) } });
      expect(status.body.data).toMatchObject({ orderStatus: 'PAID', paymentStatus: 'succeeded' });
      const product = await tool(shop.merchant, 'get_product', { productId: lamp.id });
      // 25.00 paid at 2 points a unit: 50 points, earned from commerce's event.
      const earned = await eventually(async () => {
        const got = await tool(shop.merchant, 'get_customer_loyalty', { customerId: me.customerId });
        expect(got.balance).toBe(50);
        return got;
      });
      await tool(shop.merchant, 'adjust_points', { customerId: me.customerId, points: 10, reason: 'Welcome' });
      const seen = await gql(t, '{ currentCustomer { loyalty { balance lifetimeEarned } } }', {}, bearer(me.token));
      return {
        order: { total: order.body.data.total, lines: order.body.data.items?.length },
        stock: product.variants?.[0]?.stock ?? product.stock,
        earned: earned.ledger.items.map((e: any) => [e.type, e.points, e.sourceType]),
        seen: seen.currentCustomer.loyalty,
      };
    });
    expect(distributed).toEqual(embedded);
    expect(distributed).toMatchObject({ stock: 1, earned: [['EARN', 50, 'order']], seen: { balance: 60, lifetimeEarned: 50 } });
  });

  it('a campaign send: a segment of registered customers, the campaign sent through REST, one delivery each, then SENT', async () => {
    const [embedded, distributed] = await onBoth(async (t, shop) => {
      const people = [];
      for (const name of ['Ana', 'Ben', 'Cleo']) {
        const email = uniqueEmail(`${name.toLowerCase()}-${t.name}`);
        const registered = await t.http('/v6/customer-portal/auth/register', { body: { name, email }, headers: shop.h });
        expect(registered.status).toBe(201);
        people.push({ id: registered.body.data.member.id, name, email });
      }
      const segment = await tool(shop.merchant, 'create_customer_segment', { name: 'Everyone', customerIds: people.map((p) => p.id) });
      // Campaigns learns of customers from members' events, a moment after they register.
      await eventually(async () => expect((await tool(shop.merchant, 'preview_segment', { segmentId: segment.id })).count).toBe(3), { tries: 300 });
      const campaign = await tool(shop.merchant, 'create_campaign', {
        name: 'News',
        channel: 'email',
        segmentId: segment.id,
        channelConfig: { subject: 'Hello {{firstName}}', html: '<p>Hi {{firstName}}, spring is here.</p>' },
      });
      const sent = await t.http(`/v6/merchant/campaigns/${campaign.id}/send`, { method: 'POST', headers: bearer(shop.apiKey) });
      expect(sent.status).toBe(202);
      const done = await eventually(
        async () => {
          const c = await tool(shop.merchant, 'get_campaign', { campaignId: campaign.id });
          expect(c.status).toBe('SENT');
          return c;
        },
        { tries: 600, intervalMs: 100 },
      );
      const deliveries = (await tool(shop.merchant, 'list_campaign_deliveries', { campaignId: campaign.id, limit: 100 })).items;
      expect(deliveries.map((d: any) => d.customerId).sort()).toEqual(people.map((p) => p.id).sort());
      return { sending: sent.body.data.status, deliveries: done.deliveries, each: deliveries.map((d: any) => [d.status, d.attempts]) };
    });
    expect(distributed).toEqual(embedded);
    expect(distributed).toMatchObject({
      sending: 'SENDING',
      deliveries: { total: 3, sent: 3, failed: 0 },
      each: [
        ['SENT', 1],
        ['SENT', 1],
        ['SENT', 1],
      ],
    });
  });
});

interface Shop {
  companyId: string;
  apiKey: string;
  merchant: Client;
  h: Record<string, string>;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${(result.content as { text: string }[])[0]?.text}`);
  return result.structuredContent;
}

async function gql(t: Topology, query: string, variables: Record<string, unknown>, headers: Record<string, string>): Promise<any> {
  const res = await t.http('/graphql', { body: { query, variables }, headers });
  if (res.body.errors) throw new Error(`${t.name}: ${JSON.stringify(res.body.errors)}`);
  return res.body.data;
}
