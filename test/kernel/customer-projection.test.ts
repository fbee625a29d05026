/**
 * The customer projection (kernel/customer-projection.ts), written once and kept by commerce,
 * content, loyalty and campaigns, each in its own table with the facts it declares: members'
 * events fill every one of them, late, repeated or out-of-order events leave the newest facts, and
 * an erased customer leaves every subgraph for good (an event of theirs handled after the erasure
 * does not bring them back).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { campaigns } from '../../subgraphs/campaigns/index.ts';
import { unsubscribeUrl } from '../../subgraphs/campaigns/services/unsubscribe.ts';
import { commerce } from '../../subgraphs/commerce/index.ts';
import { content } from '../../subgraphs/content/index.ts';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import type { EventName } from '../../subgraphs/kernel/events.ts';
import { newId } from '../../subgraphs/kernel/ids.ts';
import type { SubgraphModule } from '../../subgraphs/kernel/module.ts';
import { loyalty } from '../../subgraphs/loyalty/index.ts';
import { http, uniqueEmail } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { callTool, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';
import { openShop, P, product, type Shop } from '../commerce/shop.ts';

async function sql<R = any>(text: string, params: unknown[] = []): Promise<R[]> {
  const { app } = await testServer();
  return app.platform.runtime.db.orm.em.getConnection().execute<R[]>(text, params);
}

const KEEPERS: SubgraphModule[] = [commerce, content, loyalty, campaigns];
const TABLES = ['commerce.customer_projection', 'content.customer_projection', 'loyalty.customer_projection', 'campaigns.audience'];

/** What each subgraph holds of the customer (its declared facts), by table; absent: undefined. */
async function held(shop: Shop, customerId: string): Promise<Record<string, any>> {
  const rows = await Promise.all(TABLES.map((t) => sql(`select * from ${t} where company_id = ? and customer_id = ?`, [shop.company.companyId, customerId])));
  return Object.fromEntries(TABLES.map((t, i) => [t, rows[i][0]]));
}

/** Hands an event of members to every keeper that handles it, as a worker would (late, or again). */
async function deliver(shop: Shop, name: EventName, payload: unknown, occurredAt: string) {
  const { app } = await testServer();
  const event = { id: newId(), name, companyId: shop.company.companyId, occurredAt, payload };
  for (const module of KEEPERS) {
    const handler = (module.subscriptions as Record<string, ((tx: RequestContext, e: typeof event) => Promise<void>) | undefined>)[name];
    if (handler) await RequestContext.system(app.platform.runtime, shop.company.companyId).transaction((tx) => handler(tx, event));
  }
}

async function register(shop: Shop, name: string): Promise<{ customerId: string; email: string }> {
  const email = uniqueEmail(name.toLowerCase());
  const registered = await http(`${P}/auth/register`, { body: { name, lastName: 'Kept', email }, headers: shop.h });
  expect(registered.status).toBe(201);
  return { customerId: registered.body.data.member.id, email };
}

describe('the customer projection every subgraph keeps', () => {
  let shop: Shop;
  let productId: string;
  let surveyId: string;

  beforeAll(async () => {
    shop = await openShop('Projection Keepers');
    productId = (await product(shop, { name: 'Tea', price: '4.00' })).id;
    surveyId = (await callTool(shop.merchant, 'create_survey', { title: 'Poll', questions: [{ id: 'why', type: 'text', label: 'Why?' }], status: 'published' }))
      .id;
  });

  it('each keeps the facts it declares; late, repeated and out-of-order events leave the newest', async () => {
    const { customerId, email } = await register(shop, 'Kim');
    const rows = await eventually(async () => {
      const now = await held(shop, customerId);
      for (const t of TABLES) expect(now[t], t).toBeDefined();
      return now;
    });
    expect(rows['commerce.customer_projection']).toMatchObject({ name: 'Kim', last_name: 'Kept', email, phone: null });
    expect(rows['content.customer_projection']).toMatchObject({ name: 'Kim', last_name: 'Kept', email, email_verified: false, phone_verified: false });
    expect(Object.keys(rows['loyalty.customer_projection']).sort()).toEqual(['company_id', 'customer_id', 'updated_at']);
    expect(rows['campaigns.audience']).toMatchObject({ first_name: 'Kim', last_name: 'Kept', email, tags: [], orders_count: 0 });

    const facts = (name: string) => ({ customerId, name, lastName: 'Kept', email, phone: '+15550100200', emailVerified: true, phoneVerified: false });
    await deliver(shop, 'members.customer.updated', facts('Newer'), '2030-01-01T10:00:01Z');
    await deliver(shop, 'members.customer.created', facts('Older'), '2030-01-01T10:00:00Z');
    await deliver(shop, 'members.customer.created', facts('Older'), '2030-01-01T10:00:00Z');
    const after = await held(shop, customerId);
    expect(after['commerce.customer_projection']).toMatchObject({ name: 'Newer', phone: '+15550100200' });
    expect(after['content.customer_projection']).toMatchObject({ name: 'Newer', email_verified: true });
    expect(after['campaigns.audience']).toMatchObject({ first_name: 'Newer', phone: '+15550100200' });
    // When the audience's customer joined stays as it was.
    expect(after['campaigns.audience'].created_at).toEqual(rows['campaigns.audience'].created_at);
    for (const t of TABLES.filter((t) => !t.startsWith('loyalty'))) expect(new Date(after[t].updated_at).toISOString(), t).toBe('2030-01-01T10:00:01.000Z');
    // Loyalty keeps no fact an update changes, so it does not follow updates.
    expect(loyalty.subscriptions!['members.customer.updated']).toBeUndefined();
  });

  it('an erased customer leaves every subgraph, and an event of theirs handled after does not bring them back', async () => {
    const { customerId, email } = await register(shop, 'Eli');
    await eventually(async () => {
      const now = await held(shop, customerId);
      for (const t of TABLES) expect(now[t], t).toBeDefined();
    });
    // Points, an order, a tag and an invitation: they are everyone's customer.
    expect(await callTool(shop.merchant, 'adjust_points', { customerId, points: 10, reason: 'Welcome' })).toMatchObject({ customerId, balanceAfter: 10 });
    expect(await callTool(shop.merchant, 'create_shop_order', { accountId: customerId, items: [{ productId, quantity: 1 }] })).toMatchObject({ customerId });
    expect(await callTool(shop.merchant, 'tag_customers', { customerIds: [customerId], add: ['vip'] })).toEqual({ result: 1 });
    expect((await callTool(shop.merchant, 'create_survey_invitations', { surveyId, recipients: [customerId] })).result).toMatchObject([{ customerId }]);
    // Campaigns' own record of them: unsubscribed from email.
    const { app } = await testServer();
    const unsubscribe = new URL(unsubscribeUrl(app.platform.runtime, { companyId: shop.company.companyId, customerId, channel: 'email', campaignId: newId() }))
      .pathname;
    expect(
      (await http(unsubscribe, { method: 'POST', raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status,
    ).toBe(200);
    expect(await sql('select 1 from campaigns.suppression where company_id = ? and customer_id = ?', [shop.company.companyId, customerId])).toHaveLength(1);

    expect(await callTool(shop.merchant, 'delete_customer', { customerId })).toEqual({ id: customerId, deleted: true });
    await eventually(async () => {
      const now = await held(shop, customerId);
      for (const t of TABLES) expect(now[t], t).toBeUndefined();
    });
    expect(await sql('select 1 from campaigns.suppression where company_id = ? and customer_id = ?', [shop.company.companyId, customerId])).toEqual([]);

    // Their created event, retried after the erasure was handled: nothing comes back.
    const facts = { customerId, name: 'Eli', lastName: 'Kept', email, phone: null, emailVerified: false, phoneVerified: false };
    await deliver(shop, 'members.customer.created', facts, new Date().toISOString());
    await deliver(shop, 'members.customer.updated', facts, new Date().toISOString());
    expect(Object.values(await held(shop, customerId)).filter(Boolean)).toEqual([]);

    // And no subgraph takes them as a customer any more.
    expect(await toolError(shop.merchant, 'adjust_points', { customerId, points: 5, reason: 'x' })).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: { field: 'customerId' },
    });
    expect(await toolError(shop.merchant, 'create_shop_order', { accountId: customerId, items: [{ productId, quantity: 1 }] })).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: { field: 'accountId' },
    });
    expect(await toolError(shop.merchant, 'create_survey_invitations', { surveyId, recipients: [customerId] })).toMatchObject({
      code: 'BAD_USER_INPUT',
      details: { field: 'recipients' },
    });
    expect(await callTool(shop.merchant, 'tag_customers', { customerIds: [customerId], add: ['ghost'] })).toEqual({ result: 0 });
    expect(Object.values(await held(shop, customerId)).filter(Boolean)).toEqual([]);
  });
});
