import { describe, expect, it } from 'vitest';
import { http } from '../support/client.ts';
import { upgradeToStarter } from '../support/fixtures.ts';
import { callTool } from '../support/mcp.ts';
import { jobsIn } from '../support/jobs.ts';
import { testServer } from '../support/server.ts';
import { TestClock } from '../../subgraphs/kernel/clock.ts';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import { campaignsJobs } from '../../subgraphs/campaigns/jobs.ts';
import { START_QUEUE, TICK_QUEUE } from '../../subgraphs/campaigns/services/sending.ts';
import { unsubscribeUrl } from '../../subgraphs/campaigns/services/unsubscribe.ts';
import { campaignReaches, emailConfig, openBusiness, register, segmentOf, send } from './audience.ts';

/** Runs a campaigns job as the queue would, on a runtime whose clock stands `minutes` after now. */
async function runAt(queue: string, minutes: number, data: Record<string, unknown>) {
  const { app } = await testServer();
  const runtime = { ...app.platform.runtime, clock: new TestClock(Date.now() + minutes * 60_000) };
  await campaignsJobs[queue].handler(RequestContext.system(runtime, (data.companyId as string) ?? null), data);
}

describe('scheduled campaigns', () => {
  it('start at their time through their job, not before; one found more than 24 hours late is paused', async () => {
    const b = await openBusiness('Schedule Studio');
    const segment = await segmentOf(b, await register(b, 3));
    const at = new Date(Date.now() + 60 * 60_000);
    const create = () =>
      callTool(b.merchant, 'create_campaign', {
        name: 'Later',
        channel: 'email',
        recipientSource: 'segment',
        segmentId: segment.id,
        channelConfig: emailConfig,
        scheduledAt: at.toISOString(),
        status: 'SCHEDULED',
      });
    const campaign = await create();
    // Its start job is queued for that moment.
    const { app } = await testServer();
    const jobs = await jobsIn(app.platform.runtime.jobs, START_QUEUE, { campaignId: campaign.id });
    expect(jobs.map((j) => new Date(j.startAfter).getTime())).toEqual([at.getTime()]);

    const data = { companyId: b.company.companyId, campaignId: campaign.id };
    await runAt(START_QUEUE, 59, data);
    expect((await callTool(b.merchant, 'get_campaign', { campaignId: campaign.id })).status).toBe('SCHEDULED');
    await runAt(START_QUEUE, 61, data);
    // Started an hour from now (its deliveries are due then, on that clock; this test ends it there).
    const started = await callTool(b.merchant, 'get_campaign', { campaignId: campaign.id });
    expect(started).toMatchObject({ status: 'SENDING', deliveries: { total: 3 } });
    expect(new Date(started.startedAt).getTime()).toBeGreaterThan(at.getTime());
    // A second run finds nothing to do.
    await runAt(START_QUEUE, 62, data);
    expect((await callTool(b.merchant, 'get_campaign', { campaignId: campaign.id })).deliveries.total).toBe(3);
    await callTool(b.merchant, 'cancel_campaign', { campaignId: campaign.id });

    // The minute sweep finds one whose job was lost; 25 hours late it is paused, not sent.
    const late = await create();
    await runAt(TICK_QUEUE, 60 + 25 * 60, { companyId: b.company.companyId });
    const paused = await callTool(b.merchant, 'get_campaign', { campaignId: late.id });
    expect(paused).toMatchObject({ status: 'PAUSED', statusReason: expect.stringMatching(/24 hours/), deliveries: { total: 0 } });
    // The business decides: resume sends it now.
    expect((await callTool(b.merchant, 'resume_campaign', { campaignId: late.id })).status).toBe('SENDING');
    await campaignReaches(b, late.id, 'SENT');

    // Rescheduling moves the start: the old time finds nothing due.
    const moved = await create();
    await callTool(b.merchant, 'update_campaign', { campaignId: moved.id, scheduledAt: new Date(at.getTime() + 60 * 60_000).toISOString() });
    await runAt(START_QUEUE, 61, { companyId: b.company.companyId, campaignId: moved.id });
    expect((await callTool(b.merchant, 'get_campaign', { campaignId: moved.id })).status).toBe('SCHEDULED');
  });
});

describe('consent', () => {
  it('the unsubscribe link: GET asks first, POST unsubscribes at once; later sends skip the customer with the reason', async () => {
    const b = await openBusiness('Consent Studio');
    const people = await register(b, 3, { label: 'Opt' });
    const segment = await segmentOf(b, people);
    const first = await callTool(b.merchant, 'create_campaign', {
      name: 'One',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: segment.id,
      channelConfig: emailConfig,
    });
    const { app } = await testServer();
    // The link each message of `first` carries for the first customer.
    const link = unsubscribeUrl(app.platform.runtime, { companyId: b.company.companyId, customerId: people[0].id, channel: 'email', campaignId: first.id });
    const path = new URL(link).pathname;

    const page = await http(path);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<form method="post">');
    const tampered = await http(path.slice(0, -2) + 'xx', {
      method: 'POST',
      raw: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(tampered.status).toBe(404);
    // A link scanner's GET changed nothing: everyone is still reachable by email.
    const reachable = await callTool(b.merchant, 'create_customer_segment', { name: 'Reachable', rules: { reachableBy: 'email' } });
    expect(reachable.memberCount).toBe(3);

    const done = await http(path, { method: 'POST', raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(done.status).toBe(200);
    expect(done.body).toContain('You are unsubscribed');
    expect((await http(path, { method: 'POST', raw: '' })).status).toBe(200);
    expect((await callTool(b.merchant, 'preview_segment', { segmentId: reachable.id })).count).toBe(2);

    expect((await send(b, first.id)).status).toBe(202);
    const sent = await campaignReaches(b, first.id, 'SENT');
    expect(sent.deliveries).toMatchObject({ total: 3, sent: 2, skipped: 1 });
    const skipped = await callTool(b.merchant, 'list_campaign_deliveries', { campaignId: first.id, status: 'SKIPPED' });
    expect(skipped.items).toEqual([expect.objectContaining({ customerId: people[0].id, status: 'SKIPPED', skipReason: 'UNSUBSCRIBED', attempts: 0 })]);

    // SMS is a feature of the Starter plan: refused on the free one, naming the plan that lifts it.
    const sms = await callTool(b.merchant, 'create_campaign', {
      name: 'Text',
      channel: 'sms',
      recipientSource: 'segment',
      segmentId: segment.id,
      channelConfig: { body: 'Hi {{firstName}}' },
    });
    const refused = await send(b, sms.id);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', details: { limit: 'sms', plan: 'free', upgradeTo: 'starter' } });
    expect((await callTool(b.merchant, 'get_campaign', { campaignId: sms.id })).status).toBe('DRAFT');
    // On Starter, no phone numbers: the campaign skips everyone with NO_ADDRESS and is SENT at once.
    await upgradeToStarter(b.company.apiKey);
    expect((await send(b, sms.id)).status).toBe(202);
    expect((await campaignReaches(b, sms.id, 'SENT')).deliveries).toMatchObject({ total: 3, skipped: 3, sent: 0 });
    const reasons = await callTool(b.merchant, 'list_campaign_deliveries', { campaignId: sms.id });
    expect(new Set(reasons.items.map((d: any) => d.skipReason))).toEqual(new Set(['NO_ADDRESS']));
  });
});

describe('the send rate', () => {
  it('holds per company and channel: 25 emails at 10 per second take at least two seconds', async () => {
    const b = await openBusiness('Rate Studio');
    const segment = await segmentOf(b, await register(b, 25));
    const campaign = await callTool(b.merchant, 'create_campaign', {
      name: 'Rate',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: segment.id,
      channelConfig: emailConfig,
    });
    expect((await send(b, campaign.id)).status).toBe(202);
    await campaignReaches(b, campaign.id, 'SENT');
    const all = await callTool(b.merchant, 'list_campaign_deliveries', { campaignId: campaign.id, limit: 100 });
    const times = all.items.map((d: any) => new Date(d.sentAt).getTime()).sort((x: number, y: number) => x - y);
    // Three slots of a second: 10, 10 and 5 messages; no second holds more than 10 (a message is
    // recorded a moment after its slot opened, hence the margin).
    expect(times.at(-1) - times[0]).toBeGreaterThanOrEqual(2000 - 200);
    for (let i = 10; i < times.length; i++) expect(times[i] - times[i - 10]).toBeGreaterThanOrEqual(1000 - 200);
  });
});
