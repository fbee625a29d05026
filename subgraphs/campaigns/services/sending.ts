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
import { AppError, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import type { Meter } from '../../kernel/plan-catalogue.ts';
import { consumeQuota, requireFeature } from '../../kernel/plans.ts';
import { Campaign, type CampaignChannel, type ChannelConfig } from '../entities/campaign.ts';
import { render } from './content.ts';
import { membersOf } from './segments.ts';
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
    const segment = await tx.first(tx.query.selectFrom('campaigns.segment').select(['customerIds', 'rules']).where('id', '=', campaign.segmentId));
    if (!segment) throw notFound('Segment');
    const address = campaign.channel === 'email' ? 'a.email' : 'a.phone';
    await tx.query
      .insertInto('campaigns.delivery')
      .columns(['companyId', 'campaignId', 'customerId', 'address', 'status', 'skipReason', 'attempts', 'nextAttemptAt', 'createdAt'])
      .expression((outer) =>
        membersOf(outer, segment)
          .leftJoin('campaigns.suppression as s', (join) => join.onRef('s.customerId', '=', 'a.customerId').on('s.channel', '=', campaign.channel))
          .select((eb) => [
            'a.companyId',
            eb.cast<string>(eb.val(campaign.id), 'uuid').as('campaignId'),
            'a.customerId',
            eb.ref(address).as('address'),
            eb
              .case()
              .when(eb.or([eb(address, 'is', null), eb('s.reason', 'is not', null)]))
              .then('SKIPPED')
              .else('PENDING')
              .end()
              .as('status'),
            eb.case().when(address, 'is', null).then('NO_ADDRESS').else(eb.ref('s.reason')).end().as('skipReason'),
            eb.lit(0).as('attempts'),
            eb.cast<Date>(eb.val(now), 'timestamptz').as('nextAttemptAt'),
            eb.cast<Date>(eb.val(now), 'timestamptz').as('createdAt'),
          ]),
      )
      .onConflict((oc) => oc.columns(['campaignId', 'customerId']).doNothing())
      .execute();
    await withinPlan(tx, campaign);
    campaign.startedAt = now;
  }
  campaign.status = 'SENDING';
  campaign.statusReason = null;
  campaign.consecutiveFailures = 0;
  relay(tx, campaign.id, (campaign.runner = newId()), null);
  campaign.runnerSeenAt = now;
}

/** The meter each channel's messages count against. */
const METER_OF: Record<CampaignChannel, Meter> = { email: 'emailMessages', sms: 'smsMessages', whatsapp: 'whatsappMessages' };

/**
 * The plan's say on a send, once its deliveries are written: SMS and WhatsApp are features of a
 * plan, and the messages to send count against the channel's monthly quota all at once (402
 * PLAN_LIMIT_REACHED, the deliveries undone, when they do not fit).
 */
async function withinPlan(tx: RequestContext, campaign: Campaign): Promise<void> {
  const channel = campaign.channel as CampaignChannel;
  try {
    if (channel !== 'email') await requireFeature(tx, channel, `Sending ${channel === 'sms' ? 'SMS' : 'WhatsApp'} campaigns`);
    const { n } = await tx.query
      .selectFrom('campaigns.delivery')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('campaignId', '=', campaign.id)
      .where('status', '=', 'PENDING')
      .executeTakeFirstOrThrow();
    if (Number(n)) await consumeQuota(tx, METER_OF[channel], Number(n), `${channel} campaign messages`);
  } catch (error) {
    await tx.query.deleteFrom('campaigns.delivery').where('campaignId', '=', campaign.id).execute();
    throw error;
  }
}

function relay(tx: RequestContext, campaignId: string, runner: string, at: Date | null) {
  tx.runAt(BATCH_QUEUE, at, { companyId: tx.companyId, campaignId, runner });
}

interface Claimed {
  customerId: string;
  address: string | null;
  attempts: number;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
}

interface Running {
  id: string;
  channel: CampaignChannel;
  channelConfig: ChannelConfig;
}

/** One job of the chain (see the top of this file). Answers how many deliveries it handled. */
export async function runBatch(ctx: RequestContext, data: { campaignId?: unknown; runner?: unknown }): Promise<number> {
  const rates = ctx.config.campaigns.rates;
  const leaseMs = ctx.config.campaigns.leaseSeconds * 1000;
  const work = await ctx.transaction(async (tx) => {
    const campaign = await tx.query
      .selectFrom('campaigns.campaign')
      .select(['id', 'channel', 'channelConfig', 'status', 'runner'])
      .where('id', '=', data.campaignId as string)
      .forUpdate()
      .executeTakeFirst();
    if (!campaign || campaign.status !== 'SENDING' || campaign.runner !== data.runner) return null;
    const now = tx.now();
    const next = newId();
    const handOver = (at: Date | null) => {
      relay(tx, campaign.id, next, at);
      return tx.query.updateTable('campaigns.campaign').set({ runner: next, runnerSeenAt: now }).where('id', '=', campaign.id).execute();
    };
    const throttle = 'campaigns.send_throttle';
    await tx.query
      .insertInto(throttle)
      .values({ channel: campaign.channel, nextAt: now })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const slot = await tx.query.selectFrom(throttle).select('nextAt').where('channel', '=', campaign.channel).forUpdate().executeTakeFirstOrThrow();
    if (slot.nextAt.getTime() > now.getTime()) {
      await handOver(slot.nextAt);
      return null;
    }
    const rate = rates[campaign.channel];
    const claimed: Claimed[] = await tx.query
      .with('picked', (db) =>
        db
          .selectFrom('campaigns.delivery')
          .select('customerId')
          .where('campaignId', '=', campaign.id)
          .where((eb) =>
            eb.or([
              eb.and([eb('status', '=', 'PENDING'), eb('nextAttemptAt', '<=', now)]),
              eb.and([eb('status', '=', 'SENDING'), eb('leaseUntil', '<=', now)]),
            ]),
          )
          .orderBy('nextAttemptAt')
          .orderBy('customerId')
          .limit(Math.min(rate, MAX_BATCH))
          .forUpdate()
          .skipLocked(),
      )
      .with('claimed', (db) =>
        db
          .updateTable('campaigns.delivery as d')
          .from('picked')
          .set((eb) => ({ status: 'SENDING', leaseUntil: new Date(now.getTime() + leaseMs), attempts: eb('d.attempts', '+', 1) }))
          .where('d.campaignId', '=', campaign.id)
          .whereRef('d.customerId', '=', 'picked.customerId')
          .returning(['d.customerId', 'd.address', 'd.attempts']),
      )
      .selectFrom('claimed as c')
      .leftJoin('campaigns.audience as a', 'a.customerId', 'c.customerId')
      .select(['c.customerId', 'c.address', 'c.attempts', 'a.firstName', 'a.lastName', 'a.email', 'a.phone'])
      .execute();
    if (claimed.length) {
      const nextSlot = new Date(now.getTime() + Math.ceil((claimed.length * 1000) / rate));
      await tx.query.updateTable(throttle).set({ nextAt: nextSlot }).where('channel', '=', campaign.channel).execute();
      await handOver(nextSlot);
      return { campaign, claimed };
    }
    const open = await tx.first(
      tx.query
        .selectFrom('campaigns.delivery')
        .select((eb) => [
          eb.fn.countAll().as('n'),
          eb.fn.min(eb.case().when('status', '=', 'PENDING').then(eb.ref('nextAttemptAt')).else(eb.ref('leaseUntil')).end()).as('next'),
        ])
        .where('campaignId', '=', campaign.id)
        .where('status', 'in', ['PENDING', 'SENDING']),
    );
    if (Number(open?.n ?? 0) === 0) {
      await tx.query
        .updateTable('campaigns.campaign')
        .set({ status: 'SENT', finishedAt: now, runner: null, runnerSeenAt: now, updatedAt: now })
        .where('id', '=', campaign.id)
        .execute();
    } else {
      await handOver(open?.next ? new Date(open.next) : null);
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
  if (sent)
    await ctx.query
      .updateTable('campaigns.campaign')
      .set({ consecutiveFailures: 0 })
      .where('id', '=', work.campaign.id)
      .where('consecutiveFailures', '>', 0)
      .execute();
  return work.claimed.length;
}

/** Sends one claimed delivery and records what happened, at once (the smaller the window a crash can repeat); answers whether it was sent. */
async function deliver(ctx: RequestContext, campaign: Running, d: Claimed): Promise<boolean> {
  const values = {
    firstName: d.firstName ?? '',
    lastName: d.lastName ?? '',
    fullName: [d.firstName, d.lastName].filter(Boolean).join(' '),
    email: d.email ?? '',
    phone: d.phone ?? '',
    unsubscribeUrl: unsubscribeUrl(ctx.runtime, { companyId: ctx.companyId, customerId: d.customerId, channel: campaign.channel, campaignId: campaign.id }),
  };
  const config = campaign.channelConfig;
  let providerMessageId: string | null;
  try {
    ({ providerMessageId } = await transportFor(ctx.runtime, campaign.channel).send({
      ...render(campaign.channel, config, values),
      channel: campaign.channel,
      to: d.address!,
      fromName: config.fromName,
      replyTo: config.replyTo,
      unsubscribeUrl: values.unsubscribeUrl,
      idempotencyKey: `${campaign.id}:${d.customerId}`,
    }));
  } catch (error) {
    await failed(ctx, campaign, d, error instanceof SendFailure ? error : new SendFailure(String((error as Error)?.message ?? error), false));
    return false;
  }
  const now = ctx.now();
  await ctx.query
    .updateTable('campaigns.delivery')
    .set({ status: 'SENT', sentAt: now, providerMessageId, leaseUntil: null, lastError: null })
    .where('campaignId', '=', campaign.id)
    .where('customerId', '=', d.customerId)
    .where('status', '=', 'SENDING')
    .execute();
  return true;
}

async function failed(ctx: RequestContext, campaign: Running, d: Claimed, failure: SendFailure): Promise<void> {
  const now = ctx.now();
  const final = failure.permanent || d.attempts >= MAX_ATTEMPTS;
  const error = failure.message.slice(0, 500);
  await ctx.transaction(async (tx) => {
    await tx.query
      .updateTable('campaigns.delivery')
      .set({
        status: final ? 'FAILED' : 'PENDING',
        lastError: error,
        leaseUntil: null,
        nextAttemptAt: final ? now : new Date(now.getTime() + BACKOFF_MS[Math.min(d.attempts, BACKOFF_MS.length) - 1]),
      })
      .where('campaignId', '=', campaign.id)
      .where('customerId', '=', d.customerId)
      .where('status', '=', 'SENDING')
      .execute();
    if (failure.hardBounce) {
      await tx.query
        .insertInto('campaigns.suppression')
        .values({ customerId: d.customerId, channel: campaign.channel, reason: 'HARD_BOUNCE', detail: error, createdAt: now })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    const run = await tx.query
      .updateTable('campaigns.campaign')
      .set((eb) => ({ consecutiveFailures: eb('consecutiveFailures', '+', 1) }))
      .where('id', '=', campaign.id)
      .returning('consecutiveFailures')
      .executeTakeFirstOrThrow();
    // The row stays locked to the end of this transaction: no other failure counts in between.
    if (Number(run.consecutiveFailures) >= PAUSE_AFTER_FAILURES) {
      await tx.query
        .updateTable('campaigns.campaign')
        .set({ status: 'PAUSED', runner: null, statusReason: `Paused after ${PAUSE_AFTER_FAILURES} failed deliveries in a row; last: ${error}` })
        .where('id', '=', campaign.id)
        .where('status', '=', 'SENDING')
        .execute();
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
    try {
      await startSending(tx, campaign);
    } catch (error) {
      // Nobody is waiting for an answer: the business finds the campaign paused, with the reason.
      if (!(error instanceof AppError) || error.extensions.code !== 'PLAN_LIMIT_REACHED') throw error;
      campaign.status = 'PAUSED';
      campaign.statusReason = error.message;
    }
    return true;
  });
}

/** A send whose chain of jobs stalled (the minute sweep found no sign of life): a new chain takes over. */
export async function reviveStalled(ctx: RequestContext, campaignId: string): Promise<boolean> {
  return ctx.transaction(async (tx) => {
    const runner = newId();
    const moved = await tx.query
      .updateTable('campaigns.campaign')
      .set({ runner, runnerSeenAt: tx.now() })
      .where('id', '=', campaignId)
      .where('status', '=', 'SENDING')
      .returning('id')
      .execute();
    if (moved.length) relay(tx, campaignId, runner, null);
    return moved.length > 0;
  });
}
