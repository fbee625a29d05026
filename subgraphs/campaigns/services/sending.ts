/**
 * Sending, exactly once per recipient.
 *
 * Starting a send writes one delivery per member of the segment, evaluated at that moment, in the
 * transaction that moves the campaign to SENDING ((campaign, customer) is the primary key, so
 * nobody is written twice). Then a chain of batch jobs on the queue hands them to messaging: each
 * job, in one transaction, checks that it is the campaign's current `runner`, takes the company's
 * send slot for the channel (the throttle row: the rate holds across processes), claims up to a
 * second's worth of PENDING deliveries (`for update skip locked`), renders each one's message and
 * queues it in the one message log under the key `campaignId:customerId` (kernel/outbox: a key
 * already there is not written again), and queues its successor for the next slot — so a crash
 * loses nothing and repeats nothing. Messaging sends and retries; its `messaging.message.status`
 * events bring each delivery's outcome back (services/outcomes.ts), which ends the campaign when
 * none is left open and pauses it after 100 failures in a row.
 */
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../kernel/context.ts';
import { AppError, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { enqueueMessages, type NewMessage } from '../../kernel/outbox/index.ts';
import type { Meter } from '../../kernel/plan-catalogue.ts';
import { consumeQuota, requireFeature } from '../../kernel/plans.ts';
import { Campaign, type CampaignChannel, type ChannelConfig } from '../entities/campaign.ts';
import { render, type RenderedMessage } from './content.ts';
import { membersOf } from './segments.ts';
import { unsubscribeUrl } from './unsubscribe.ts';

export const BATCH_QUEUE = 'campaigns.send-batch';
export const START_QUEUE = 'campaigns.start-scheduled';
export const TICK_QUEUE = 'campaigns.tick';

/** The most deliveries one job claims (at high rates; otherwise a second's worth). */
const MAX_BATCH = 200;
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

/** One job of the chain (see the top of this file). Answers how many deliveries it handed over. */
export async function runBatch(ctx: RequestContext, data: { campaignId?: unknown; runner?: unknown }): Promise<number> {
  const rates = ctx.config.campaigns.rates;
  return ctx.transaction(async (tx) => {
    const campaign = await tx.query
      .selectFrom('campaigns.campaign')
      .select(['id', 'channel', 'channelConfig', 'status', 'runner'])
      .where('id', '=', data.campaignId as string)
      .forUpdate()
      .executeTakeFirst();
    if (!campaign || campaign.status !== 'SENDING' || campaign.runner !== data.runner) return 0;
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
      return 0;
    }
    const rate = rates[campaign.channel];
    const claimed: Claimed[] = await tx.query
      .with('picked', (db) =>
        db
          .selectFrom('campaigns.delivery')
          .select('customerId')
          .where('campaignId', '=', campaign.id)
          .where('status', '=', 'PENDING')
          .where('nextAttemptAt', '<=', now)
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
          .set({ status: 'SENDING' })
          .where('d.campaignId', '=', campaign.id)
          .whereRef('d.customerId', '=', 'picked.customerId')
          .returning(['d.customerId', 'd.address']),
      )
      .selectFrom('claimed as c')
      .leftJoin('campaigns.audience as a', 'a.customerId', 'c.customerId')
      .select(['c.customerId', 'c.address', 'a.firstName', 'a.lastName', 'a.email', 'a.phone'])
      .execute();
    if (claimed.length) {
      await enqueueMessages(
        tx,
        claimed.map((d) => campaignMessage(tx, campaign, d)),
      );
      const nextSlot = new Date(now.getTime() + Math.ceil((claimed.length * 1000) / rate));
      await tx.query.updateTable(throttle).set({ nextAt: nextSlot }).where('channel', '=', campaign.channel).execute();
      await handOver(nextSlot);
      return claimed.length;
    }
    // Everything is handed over: the chain ends, and the last outcome ends the campaign (outcomes.ts).
    await finishIfDone(tx, campaign.id);
    await tx.query.updateTable('campaigns.campaign').set({ runner: null, runnerSeenAt: now }).where('id', '=', campaign.id).execute();
    return 0;
  });
}

/** One recipient's message, as the message log takes it. */
function campaignMessage(ctx: RequestContext, campaign: Running, d: Claimed): NewMessage {
  const unsubscribe = unsubscribeUrl(ctx.runtime, { companyId: ctx.companyId, customerId: d.customerId, channel: campaign.channel, campaignId: campaign.id });
  const config = campaign.channelConfig;
  const rendered = render(campaign.channel, config, {
    firstName: d.firstName ?? '',
    lastName: d.lastName ?? '',
    fullName: [d.firstName, d.lastName].filter(Boolean).join(' '),
    email: d.email ?? '',
    phone: d.phone ?? '',
    unsubscribeUrl: unsubscribe,
  });
  return {
    companyId: ctx.companyId,
    channel: campaign.channel,
    to: d.address!,
    ...messageParts(rendered),
    extras: campaign.channel === 'email' ? { fromName: config.fromName, replyTo: config.replyTo, unsubscribeUrl: unsubscribe } : undefined,
    customerId: d.customerId,
    campaignId: campaign.id,
    sender: { kind: 'campaign', id: campaign.id },
    idempotencyKey: `${campaign.id}:${d.customerId}`,
  };
}

/**
 * A rendered message as the log's columns: the text (an email's plain part, or its html without
 * tags when it has none; a template's name and parameters, for the record), html and template.
 */
export function messageParts(m: RenderedMessage): Pick<NewMessage, 'subject' | 'body' | 'html' | 'template'> {
  const body =
    m.text ??
    m.body ??
    (m.html !== undefined
      ? m.html
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
      : `${m.template!.name} (${m.template!.language}): ${m.template!.parameters.join(', ')}`);
  return { subject: m.subject, body, html: m.html, template: m.template };
}

/** SENDING → SENT once no delivery of the campaign (locked by `tx`'s caller) is left to send or to hear from. */
export async function finishIfDone(tx: RequestContext, campaignId: string): Promise<void> {
  const open = await tx.query
    .selectFrom('campaigns.delivery')
    .select('customerId')
    .where('campaignId', '=', campaignId)
    .where('status', 'in', ['PENDING', 'SENDING'])
    .limit(1)
    .executeTakeFirst();
  if (open) return;
  const now = tx.now();
  await tx.query
    .updateTable('campaigns.campaign')
    .set({ status: 'SENT', finishedAt: now, runner: null, runnerSeenAt: now, updatedAt: now })
    .where('id', '=', campaignId)
    .where('status', '=', 'SENDING')
    .execute();
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
