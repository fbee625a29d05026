/**
 * Projections that lag their owner (kernel/projections.ts): a record its owner committed a moment
 * ago, whose event has not reached the projection, still works; an id the owner does not have is
 * refused at once. "At once" is shown by the statements a refusal sends, not by a stopwatch: a
 * refusal reads the projection once and asks the owner once, where a wait would read it again and
 * again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import { subscriberQueue } from '../../subgraphs/kernel/jobs/queues.ts';
import { http, uniqueEmail } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { jobsIn } from '../support/jobs.ts';
import { callTool, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';
import { statementsOf } from '../support/sql.ts';
import { openShop, P, product, type Shop } from '../commerce/shop.ts';

async function sql<R = any>(text: string, params: unknown[] = []): Promise<R[]> {
  const { app } = await testServer();
  return app.platform.runtime.db.orm.em.getConnection().execute<R[]>(text, params);
}

/** The projections members' customer events fill, by subgraph. */
const CUSTOMER_PROJECTIONS = ['loyalty.customer_projection', 'commerce.customer_projection', 'content.customer_projection', 'campaigns.audience'];

/**
 * A customer registered through the storefront whose members events have not reached any
 * projection: once the events have been handled, the rows they made are taken out again, which
 * leaves the state of an event still on its way (members holds the customer, no projection does).
 */
async function customerNotYetProjected(shop: Shop): Promise<string> {
  const registered = await http(`${P}/auth/register`, { body: { name: 'Nora', lastName: 'New', email: uniqueEmail('nora') }, headers: shop.h });
  expect(registered.status).toBe(201);
  const customerId: string = registered.body.data.member.id;
  for (const table of CUSTOMER_PROJECTIONS) {
    await eventually(async () =>
      expect(await sql(`select 1 from ${table} where company_id = ? and customer_id = ?`, [shop.company.companyId, customerId])).toHaveLength(1),
    );
    await sql(`delete from ${table} where company_id = ? and customer_id = ?`, [shop.company.companyId, customerId]);
  }
  return customerId;
}

const REGISTRATION_QUEUE = subscriberQueue('commerce', 'content.registration.created');

/**
 * A paid registration made through the storefront whose event commerce has not handled yet: once
 * handled, its row and receipt are taken out and the event is queued again as content published it,
 * not due before tomorrow (so no worker takes it during the test).
 */
async function registrationNotYetProjected(shop: Shop, eventId: string): Promise<{ registrationId: string; eventId: string }> {
  const registered = await http(`${P}/event-registrations`, { body: { eventId, name: 'Rita', email: uniqueEmail('rita'), quantity: 1 }, headers: shop.h });
  expect(registered.status).toBe(201);
  const registrationId: string = registered.body.data.id;
  const { app } = await testServer();
  const jobs = app.platform.runtime.jobs;
  const [job] = await eventually(async () => {
    const handled = (await jobsIn(jobs, REGISTRATION_QUEUE, { payload: { registrationId } })).filter((j) => j.state === 'completed');
    expect(handled).toHaveLength(1);
    return handled;
  });
  await sql('delete from commerce.payable_registration where company_id = ? and registration_id = ?', [shop.company.companyId, registrationId]);
  await sql('delete from kernel.event_receipt where subscriber = ? and event_id = ?', [REGISTRATION_QUEUE, job.data.id]);
  await RequestContext.system(app.platform.runtime, shop.company.companyId).transaction(async (tx) =>
    tx.runAt(REGISTRATION_QUEUE, new Date(Date.now() + 24 * 3600_000), job.data),
  );
  return { registrationId, eventId: job.data.id };
}

/** Statements of a call that name a table, however quoted (the fewest of three runs, test/support/sql.ts). */
async function readsOf(table: string, call: () => Promise<unknown>): Promise<number> {
  const [schema, name] = table.split('.');
  const named = new RegExp(`"?${schema}"?\\s*\\.\\s*"?${name}"?(?![\\w"])`);
  return (await statementsOf(call)).filter((s) => named.test(s)).length;
}

describe('a projection that has not caught up yet', () => {
  let shop: Shop;
  let productId: string;
  let eventId: string;
  let surveyId: string;
  const unknown = '01900000-0000-7000-8000-0000000000cd';

  beforeAll(async () => {
    shop = await openShop('Lagging Shop');
    productId = (await product(shop, { name: 'Tea', price: '4.00' })).id;
    const starts = new Date(Date.UTC(2031, 0, 10, 18)).toISOString();
    const ends = new Date(Date.UTC(2031, 0, 10, 20)).toISOString();
    eventId = (
      await callTool(shop.merchant, 'create_event', { title: 'Lagging talk', startsAt: starts, endsAt: ends, price: '15', capacity: 20, status: 'published' })
    ).id;
    surveyId = (
      await callTool(shop.merchant, 'create_survey', { title: 'Lag poll', questions: [{ id: 'why', type: 'text', label: 'Why?' }], status: 'published' })
    ).id;
  });

  it('a customer members has and no projection yet: points, their lookup, an order, tags and invitations work', async () => {
    const customerId = await customerNotYetProjected(shop);
    // Loyalty: an adjustment and the lookup.
    expect(await callTool(shop.merchant, 'adjust_points', { customerId, points: 40, reason: 'Welcome' })).toMatchObject({
      customerId,
      points: 40,
      balanceAfter: 40,
    });
    expect(await callTool(shop.merchant, 'get_customer_loyalty', { customerId })).toMatchObject({ customerId, balance: 40 });
    // Commerce: an order for them, named as members has them.
    const order = await callTool(shop.merchant, 'create_shop_order', { accountId: customerId, items: [{ productId, quantity: 1 }] });
    expect(order).toMatchObject({ customerId, customerName: 'Nora New' });
    // Campaigns: tagged, and in the audience from now on.
    expect(await callTool(shop.merchant, 'tag_customers', { customerIds: [customerId], add: ['fresh'] })).toEqual({ result: 1 });
    expect(await sql('select tags, first_name from campaigns.audience where company_id = ? and customer_id = ?', [shop.company.companyId, customerId])).toEqual(
      [{ tags: ['fresh'], first_name: 'Nora' }],
    );
    // Content: invited to a survey.
    expect((await callTool(shop.merchant, 'create_survey_invitations', { surveyId, recipients: [customerId] })).result).toMatchObject([{ customerId }]);
  });

  it('a registration content made and commerce has not heard of yet: its payment opens', async () => {
    const { registrationId, eventId: published } = await registrationNotYetProjected(shop, eventId);
    const intent = await http(`${P}/event-registrations/${registrationId}/payment-intent`, { body: { paymentMethodId: 'sandbox_success' }, headers: shop.h });
    expect(intent.status).toBe(200);
    expect(intent.body.data).toMatchObject({ registrationId, amount: { amount: '15.00' } });
    // Handled once: the worker that takes the queued event later finds its receipt.
    expect(await sql('select 1 from kernel.event_receipt where subscriber = ? and event_id = ?', [REGISTRATION_QUEUE, published])).toHaveLength(1);
  });

  it('an id the owner does not have either is refused at once, naming the field', async () => {
    const adjust = () => toolError(shop.merchant, 'adjust_points', { customerId: unknown, points: 5, reason: 'x' });
    const lookup = () => toolError(shop.merchant, 'get_customer_loyalty', { customerId: unknown });
    const order = () => toolError(shop.merchant, 'create_shop_order', { accountId: unknown, items: [{ productId, quantity: 1 }] });
    const invite = () => toolError(shop.merchant, 'create_survey_invitations', { surveyId, recipients: [unknown] });
    const pay = () => http(`${P}/event-registrations/${unknown}/payment-intent`, { body: {}, headers: shop.h });
    expect(await adjust()).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'customerId' } });
    expect(await lookup()).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'customerId' } });
    expect(await order()).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'accountId' } });
    expect(await invite()).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'recipients', customerIds: [unknown] } });
    const refused = await pay();
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
    expect(await callTool(shop.merchant, 'tag_customers', { customerIds: [unknown], add: ['ghost'] })).toEqual({ result: 0 });

    // One look at the projection and one at the owner: nothing read again while waiting.
    expect(await readsOf('loyalty.customer_projection', adjust)).toBe(1);
    expect(await readsOf('members.customer', adjust)).toBe(1);
    expect(await readsOf('loyalty.customer_projection', lookup)).toBe(1);
    expect(await readsOf('commerce.customer_projection', order)).toBe(1);
    expect(await readsOf('members.customer', order)).toBe(1);
    expect(await readsOf('content.customer_projection', invite)).toBe(1);
    expect(await readsOf('commerce.payable_registration', pay)).toBe(1);
  });
});
