/**
 * Sending, exactly once per recipient.
 *
 * Starting a send writes one delivery per member of the segment, evaluated at that moment, in the
 * transaction that moves the campaign to SENDING ((campaign, customer) is the primary key, so
 * nobody is written twice). Then a chain of batch jobs on the queue does the work: each job, in
 * one transaction, checks that it is the campaign's current `runner`, takes the company's send
 * slot for the channel (the throttle row: the rate limit holds across processes), claims up to a
 * second's worth of ready deliveries with a lease (`for update skip locked`), and queues its
 * successor for the next slot — so the chain survives this process dying mid-batch. Then it sends
 * each claimed delivery and records the outcome at once. A delivery whose lease ran out (its
 * process died) is claimed again; the provider call carries `campaignId:customerId` as its
 * idempotency key, so such a repeat is recognised by the provider. Failures are retried after
 * 1 min, 5 min, 30 min and 2 h (5 attempts); a 4xx-like failure is final at once; 100 failures in
 * a row pause the campaign. The campaign is SENT when no delivery is left open.
 */
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import { Campaign, type CampaignChannel, type ChannelConfig } from '../entities/campaign.ts';
import { Segment } from '../entities/segment.ts';
import { render } from './content.ts';
import { membersWhere } from './segments.ts';
import { sql } from './sql.ts';
import { SendFailure, transportFor } from './transports.ts';
import { unsubscribeUrl } from './unsubscribe.ts';

export const BATCH_QUEUE = 'campaigns.send-batch';
export const START_QUEUE = 'campaigns.start-scheduled';
export const TICK_QUEUE = 'campaigns.tick';

/** The most deliveries one job claims (at high rates; otherwise a second's worth). */
const MAX_BATCH = 200;
/** Sends in flight at once within a batch. */
const PARALLEL = 8;
export const MAX_ATTEMPTS = 5;
/** Waits before attempts 2 to 5. */
const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000];
export const PAUSE_AFTER_FAILURES = 100;
/** A scheduled campaign found later than this is paused rather than sent. */
const LATE_MS = 24 * 3600_000;

/**
 * Moves the campaign (locked by `tx`) to SENDING. The first time, writes its deliveries from the
 * segment as it is now: customers without an address on the channel, unsubscribed or hard-bounced
 * are written SKIPPED with the reason.
 */
export async function startSending(tx: RequestContext, campaign: Campaign): Promise<void> {
  const now = tx.now();
  if (!campaign.startedAt) {
    const segment = await tx.em.findOneOrFail(Segment, { id: campaign.segmentId });
    const address = campaign.channel === 'email' ? 'a.email' : 'a.phone';
    await sql('insert into campaigns.delivery (company_id, campaign_id, customer_id, address, status, skip_reason, attempts, next_attempt_at, created_at) select a.company_id, ')
      .value(campaign.id)
      .text(`, a.customer_id, ${address}, case when ${address} is null or s.reason is not null then 'SKIPPED' else 'PENDING' end,`)
      .text(` case when ${address} is null then 'NO_ADDRESS' else s.reason end, 0, `)
      .value(now)
      .text('::timestamptz, ')
      .value(now)
      .text('::timestamptz from campaigns.audience a left join campaigns.suppression s on s.company_id = a.company_id and s.customer_id = a.customer_id and s.channel = ')
      .value(campaign.channel)
      .text(' where a.company_id = ')
      .value(COMPANY)
      .append(membersWhere(segment))
      .text(' on conflict (campaign_id, customer_id) do nothing')
      .run(tx);
    campaign.startedAt = now;
  }
  campaign.status = 'SENDING';
  campaign.statusReason = null;
  campaign.consecutiveFailures = 0;
  relay(tx, campaign.id, (campaign.runner = newId()), null);
  campaign.runnerSeenAt = now;
}

function relay(tx: RequestContext, campaignId: string, runner: string, at: Date | null) {
  tx.runAt(BATCH_QUEUE, at, { companyId: tx.companyId, campaignId, runner });
}

interface Claimed {
  customer_id: string;
  address: string;
  attempts: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
}

interface Running {
  id: string;
  channel: CampaignChannel;
  channel_config: ChannelConfig;
}

/** One job of the chain (see the top of this file). Answers how many deliveries it handled. */
export async function runBatch(ctx: RequestContext, data: { campaignId?: unknown; runner?: unknown }): Promise<number> {
  const rates = ctx.config.campaigns.rates;
  const leaseMs = ctx.config.campaigns.leaseSeconds * 1000;
  const work = await ctx.transaction(async (tx) => {
    const [campaign] = await tx.tenantSql<Running & { status: string; runner: string | null }>`select id, channel, channel_config, status, runner
      from campaigns.campaign where company_id = ${COMPANY} and id = ${data.campaignId} for update`;
    if (!campaign || campaign.status !== 'SENDING' || campaign.runner !== data.runner) return null;
    const now = tx.now();
    const next = newId();
    const handOver = (at: Date | null) => {
      relay(tx, campaign.id, next, at);
      return tx.tenantSql`update campaigns.campaign set runner = ${next}, runner_seen_at = ${now} where company_id = ${COMPANY} and id = ${campaign.id}`;
    };
    await tx.tenantSql`insert into campaigns.send_throttle (company_id, channel, next_at) values (${COMPANY}, ${campaign.channel}, ${now}) on conflict do nothing`;
    const [slot] = await tx.tenantSql<{ next_at: Date }>`select next_at from campaigns.send_throttle where company_id = ${COMPANY} and channel = ${campaign.channel} for update`;
    if (new Date(slot.next_at).getTime() > now.getTime()) {
      await handOver(new Date(slot.next_at));
      return null;
    }
    const rate = rates[campaign.channel];
    const claimed = await tx.tenantSql<Claimed>`with picked as (
        select customer_id from campaigns.delivery where company_id = ${COMPANY} and campaign_id = ${campaign.id}
          and ((status = 'PENDING' and next_attempt_at <= ${now}) or (status = 'SENDING' and lease_until <= ${now}))
        order by next_attempt_at, customer_id limit ${Math.min(rate, MAX_BATCH)} for update skip locked),
      claimed as (
        update campaigns.delivery d set status = 'SENDING', lease_until = ${new Date(now.getTime() + leaseMs)}, attempts = d.attempts + 1
        from picked where d.company_id = ${COMPANY} and d.campaign_id = ${campaign.id} and d.customer_id = picked.customer_id
        returning d.customer_id, d.address, d.attempts)
      select c.customer_id, c.address, c.attempts, a.first_name, a.last_name, a.email, a.phone
      from claimed c left join campaigns.audience a on a.company_id = ${COMPANY} and a.customer_id = c.customer_id`;
    if (claimed.length) {
      const nextSlot = new Date(now.getTime() + Math.ceil((claimed.length * 1000) / rate));
      await tx.tenantSql`update campaigns.send_throttle set next_at = ${nextSlot} where company_id = ${COMPANY} and channel = ${campaign.channel}`;
      await handOver(nextSlot);
      return { campaign, claimed };
    }
    const [open] = await tx.tenantSql<{ n: number; next: Date | null }>`select count(*)::int as n,
        min(case when status = 'PENDING' then next_attempt_at else lease_until end) as next
      from campaigns.delivery where company_id = ${COMPANY} and campaign_id = ${campaign.id} and status in ('PENDING', 'SENDING')`;
    if (Number(open.n) === 0) {
      await tx.tenantSql`update campaigns.campaign set status = 'SENT', finished_at = ${now}, runner = null, runner_seen_at = ${now}, updated_at = ${now}
        where company_id = ${COMPANY} and id = ${campaign.id}`;
    } else {
      await handOver(open.next ? new Date(open.next) : null);
    }
    return null;
  });
  if (!work) return 0;
  const queue = [...work.claimed];
  let sent = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) if (await deliver(ctx, work.campaign, next)) sent++;
    }),
  );
  // A success ends a run of failures (counted per message in failed(), reset once per batch).
  if (sent) await ctx.tenantSql`update campaigns.campaign set consecutive_failures = 0 where company_id = ${COMPANY} and id = ${work.campaign.id} and consecutive_failures > 0`;
  return work.claimed.length;
}

/** Sends one claimed delivery and records what happened, at once (the smaller the window a crash can repeat); answers whether it was sent. */
async function deliver(ctx: RequestContext, campaign: Running, d: Claimed): Promise<boolean> {
  const values = {
    firstName: d.first_name ?? '',
    lastName: d.last_name ?? '',
    fullName: [d.first_name, d.last_name].filter(Boolean).join(' '),
    email: d.email ?? '',
    phone: d.phone ?? '',
    unsubscribeUrl: unsubscribeUrl(ctx.runtime, { companyId: ctx.companyId, customerId: d.customer_id, channel: campaign.channel, campaignId: campaign.id }),
  };
  const config = campaign.channel_config;
  let providerMessageId: string | null;
  try {
    ({ providerMessageId } = await transportFor(ctx.runtime, campaign.channel).send({
      ...render(campaign.channel, config, values),
      channel: campaign.channel,
      to: d.address,
      fromName: config.fromName,
      replyTo: config.replyTo,
      unsubscribeUrl: values.unsubscribeUrl,
      idempotencyKey: `${campaign.id}:${d.customer_id}`,
    }));
  } catch (error) {
    await failed(ctx, campaign, d, error instanceof SendFailure ? error : new SendFailure(String((error as Error)?.message ?? error), false));
    return false;
  }
  const now = ctx.now();
  await ctx.tenantSql`update campaigns.delivery set status = 'SENT', sent_at = ${now}, provider_message_id = ${providerMessageId}, lease_until = null, last_error = null
    where company_id = ${COMPANY} and campaign_id = ${campaign.id} and customer_id = ${d.customer_id} and status = 'SENDING'`;
  return true;
}

async function failed(ctx: RequestContext, campaign: Running, d: Claimed, failure: SendFailure): Promise<void> {
  const now = ctx.now();
  const final = failure.permanent || d.attempts >= MAX_ATTEMPTS;
  const error = failure.message.slice(0, 500);
  await ctx.transaction(async (tx) => {
    await tx.tenantSql`update campaigns.delivery set status = ${final ? 'FAILED' : 'PENDING'}, last_error = ${error}, lease_until = null,
        next_attempt_at = ${final ? now : new Date(now.getTime() + BACKOFF_MS[Math.min(d.attempts, BACKOFF_MS.length) - 1])}
      where company_id = ${COMPANY} and campaign_id = ${campaign.id} and customer_id = ${d.customer_id} and status = 'SENDING'`;
    if (failure.hardBounce) {
      await tx.tenantSql`insert into campaigns.suppression (company_id, customer_id, channel, reason, detail, created_at)
        values (${COMPANY}, ${d.customer_id}, ${campaign.channel}, 'HARD_BOUNCE', ${error}, ${now}) on conflict do nothing`;
    }
    const [run] = await tx.tenantSql<{ failures: number }>`update campaigns.campaign set consecutive_failures = consecutive_failures + 1
      where company_id = ${COMPANY} and id = ${campaign.id} returning consecutive_failures as failures`;
    // The row stays locked to the end of this transaction: no other failure counts in between.
    if (Number(run.failures) >= PAUSE_AFTER_FAILURES) {
      await tx.tenantSql`update campaigns.campaign set status = 'PAUSED', runner = null,
          status_reason = ${`Paused after ${PAUSE_AFTER_FAILURES} failed deliveries in a row; last: ${error}`}
        where company_id = ${COMPANY} and id = ${campaign.id} and status = 'SENDING'`;
    }
  });
}

/**
 * A scheduled campaign's time came (its own job, or the minute sweep): it starts sending, or,
 * found more than 24 hours late (the platform was down), it is paused for the business to decide.
 */
export async function startDue(ctx: RequestContext, campaignId: string): Promise<boolean> {
  return ctx.transaction(async (tx) => {
    const campaign = await tx.em.findOne(Campaign, { id: campaignId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!campaign || campaign.status !== 'SCHEDULED' || !campaign.scheduledAt) return false;
    const late = tx.now().getTime() - campaign.scheduledAt.getTime();
    if (late < 0) return false;
    if (late > LATE_MS) {
      campaign.status = 'PAUSED';
      campaign.statusReason = `Its scheduled time (${campaign.scheduledAt.toISOString()}) passed more than 24 hours ago; resume it to send now`;
      return true;
    }
    await startSending(tx, campaign);
    return true;
  });
}

/** A send whose chain of jobs stalled (the minute sweep found no sign of life): a new chain takes over. */
export async function reviveStalled(ctx: RequestContext, campaignId: string): Promise<boolean> {
  return ctx.transaction(async (tx) => {
    const runner = newId();
    const moved = await tx.tenantSql`update campaigns.campaign set runner = ${runner}, runner_seen_at = ${tx.now()}
      where company_id = ${COMPANY} and id = ${campaignId} and status = 'SENDING' returning id`;
    if (moved.length) relay(tx, campaignId, runner, null);
    return moved.length > 0;
  });
}
