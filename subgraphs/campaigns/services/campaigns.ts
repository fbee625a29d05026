/** Campaigns: written as drafts or scheduled, changed until they start, paused, resumed, cancelled, deleted. */
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../kernel/context.ts';
import { AppError, badInput, conflict, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { enqueueMessages, senderOf, withdrawMessages } from '../../kernel/outbox/index.ts';
import { pageRequest, type Page } from '../../kernel/pagination.ts';
import { requireFeature } from '../../kernel/plans.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { email, parse, phone } from '../../kernel/schemas.ts';
import { Campaign, DELIVERY_STATUSES, type CampaignChannel, type CampaignStatus, type ChannelConfig, type DeliveryStatus } from '../entities/campaign.ts';
import { checkChannelConfig, render } from './content.ts';
import { findSegment } from './segments.ts';
import { messageParts, startSending, START_QUEUE } from './sending.ts';
import { campaignStates } from './states.ts';
import { UNSUBSCRIBE_PREFIX } from './unsubscribe.ts';

export type CampaignRow = RowOf<'campaigns.campaign'>;
export type DeliveryRow = RowOf<'campaigns.delivery'>;

/** A campaign's fields as the edge checked them (resolvers/campaign.inputs.ts); on a change, absent means unchanged. */
export interface CampaignChanges {
  name?: string | null;
  channel?: CampaignChannel | null;
  recipientSource?: 'segment' | null;
  segmentId?: string | null;
  /** Checked against the campaign's channel here (services/content.ts): on a change the channel may be the stored one. */
  channelConfig?: ChannelConfig | null;
  scheduledAt?: Date | null;
  /** A campaign is written as a DRAFT or SCHEDULED; the other states are reached by its moves. */
  status?: 'DRAFT' | 'SCHEDULED' | null;
}

/** A new campaign: what it cannot be without. */
export type NewCampaign = CampaignChanges & { name: string; channel: CampaignChannel; recipientSource: 'segment'; segmentId: string };

/** A campaign with its deliveries counted by status. */
export interface CountedCampaign {
  campaign: Campaign;
  deliveries: DeliveryCounts;
}

/** Moves to SCHEDULED need a time in the future; the start job is queued for it (a later change leaves a stale job that finds nothing due). */
function schedule(tx: RequestContext, campaign: Campaign, at: Date | null | undefined) {
  if (!at) throw badInput('scheduledAt', 'is required to schedule a campaign');
  if (at.getTime() <= tx.now().getTime()) throw badInput('scheduledAt', 'must be in the future');
  campaign.scheduledAt = at;
  tx.runAt(START_QUEUE, at, { companyId: tx.companyId, campaignId: campaign.id });
}

/** The plain fields, then the segment, the channel's settings and the status (with its schedule). */
async function apply(tx: RequestContext, campaign: Campaign, input: CampaignChanges, creating: boolean) {
  applyChanges(campaign, input, { set: ['name', 'channel', 'recipientSource'] });
  if (input.segmentId != null) campaign.segmentId = (await findSegment(tx, input.segmentId)).id;
  if (input.channelConfig != null || input.channel != null || creating)
    campaign.channelConfig = checkChannelConfig(campaign.channel, input.channelConfig ?? campaign.channelConfig);
  const status = input.status ?? (creating ? 'DRAFT' : campaign.status);
  if (!creating && status !== campaign.status) campaignStates.assert(campaign.status, status);
  if (status === 'SCHEDULED') {
    // A new time, or a draft becoming scheduled (at the time it was given, or the one it holds).
    if (creating || campaign.status !== 'SCHEDULED' || input.scheduledAt !== undefined)
      schedule(tx, campaign, input.scheduledAt !== undefined ? input.scheduledAt : campaign.scheduledAt);
  } else if (input.scheduledAt !== undefined) {
    if (input.scheduledAt && input.scheduledAt.getTime() <= tx.now().getTime()) throw badInput('scheduledAt', 'must be in the future');
    campaign.scheduledAt = input.scheduledAt;
  }
  campaign.status = status;
}

export async function createCampaign(ctx: RequestContext, input: NewCampaign): Promise<CountedCampaign> {
  const created = await ctx.transaction(async (tx) => {
    const campaign = tx.em.create(Campaign, {
      id: newId(),
      name: '',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: null as unknown as string,
      channelConfig: {},
      status: 'DRAFT',
      scheduledAt: null,
      statusReason: null,
      startedAt: null,
      finishedAt: null,
      consecutiveFailures: 0,
      runner: null,
      runnerSeenAt: null,
    });
    await apply(tx, campaign, input, true);
    return campaign;
  });
  return counted(ctx, created);
}

/** The campaign, locked for a change inside `tx`. */
export async function lockCampaign(tx: RequestContext, campaignId: string): Promise<Campaign> {
  const campaign = await tx.em.findOne(Campaign, { id: campaignId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!campaign) throw notFound('Campaign');
  return campaign;
}

export async function updateCampaign(ctx: RequestContext, campaignId: string, input: CampaignChanges): Promise<CountedCampaign> {
  return counted(
    ctx,
    await ctx.transaction(async (tx) => {
      const campaign = await lockCampaign(tx, campaignId);
      if (campaign.status !== 'DRAFT' && campaign.status !== 'SCHEDULED') {
        throw conflict(`The campaign is ${campaign.status}: only a DRAFT or SCHEDULED campaign can be changed`, { status: campaign.status });
      }
      await apply(tx, campaign, input, false);
      return campaign;
    }),
  );
}

/** Deletes a campaign that is not sending and was never sent (its deliveries go with it); answers its id. */
export async function deleteCampaign(ctx: RequestContext, campaignId: string): Promise<string> {
  return ctx.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, campaignId);
    if (campaign.status === 'SENT' || campaign.status === 'SENDING') {
      throw conflict(`A ${campaign.status} campaign cannot be deleted${campaign.status === 'SENDING' ? ': pause or cancel it first' : ''}`, {
        status: campaign.status,
      });
    }
    tx.em.remove(campaign);
    return campaign.id;
  });
}

export async function pauseCampaign(ctx: RequestContext, campaignId: string): Promise<CountedCampaign> {
  return counted(
    ctx,
    await ctx.transaction(async (tx) => {
      const campaign = await lockCampaign(tx, campaignId);
      campaignStates.assert(campaign.status, 'PAUSED');
      campaign.status = 'PAUSED';
      campaign.statusReason = 'Paused by the business';
      // Its chain of batch jobs ends at the next batch (services/sending.ts checks the status).
      campaign.runner = null;
      return campaign;
    }),
  );
}

/** PAUSED → SENDING: continues a send (or starts one that was paused before it began). */
export async function resumeCampaign(ctx: RequestContext, campaignId: string): Promise<CountedCampaign> {
  return counted(
    ctx,
    await ctx.transaction(async (tx) => {
      const campaign = await lockCampaign(tx, campaignId);
      if (campaign.status !== 'PAUSED') {
        throw new AppError('INVALID_STATE_TRANSITION', `The campaign is ${campaign.status}: only a PAUSED campaign can be resumed`, {
          from: campaign.status,
          to: 'SENDING',
          allowed: [...campaignStates.allowed(campaign.status)],
        });
      }
      await startSending(tx, campaign);
      return campaign;
    }),
  );
}

/** The send route: DRAFT, SCHEDULED (now rather than later) or PAUSED → SENDING; a second call while sending is 409. */
export async function sendCampaign(ctx: RequestContext, campaignId: string): Promise<CountedCampaign> {
  return counted(
    ctx,
    await ctx.transaction(async (tx) => {
      const campaign = await lockCampaign(tx, campaignId);
      campaignStates.assert(campaign.status, 'SENDING');
      await startSending(tx, campaign);
      return campaign;
    }),
  );
}

export async function cancelCampaign(ctx: RequestContext, campaignId: string): Promise<CountedCampaign> {
  return counted(
    ctx,
    await ctx.transaction(async (tx) => {
      const campaign = await lockCampaign(tx, campaignId);
      campaignStates.assert(campaign.status, 'CANCELLED');
      campaign.status = 'CANCELLED';
      campaign.statusReason = 'Cancelled by the business';
      campaign.runner = null;
      campaign.finishedAt = tx.now();
      await tx.em.flush();
      await tx.query
        .updateTable('campaigns.delivery')
        .set({ status: 'CANCELLED', leaseUntil: null })
        .where('campaignId', '=', campaign.id)
        .where('status', 'in', ['PENDING', 'SENDING'])
        .execute();
      // Messages handed over but not yet taken by messaging's worker go no further.
      await withdrawMessages(tx, campaign.id);
      return campaign;
    }),
  );
}

async function findCampaign(ctx: RequestContext, campaignId: string): Promise<CampaignRow> {
  const campaign = await ctx.find('campaigns.campaign', campaignId);
  if (!campaign) throw notFound('Campaign');
  return campaign;
}

export async function getCampaign(ctx: RequestContext, campaignId: string): Promise<CountedCampaign> {
  return counted(ctx, await findCampaign(ctx, campaignId));
}

/** The company's campaigns, newest first, each with its deliveries counted (one statement for the page). */
export async function listCampaigns(
  ctx: RequestContext,
  args: { status?: CampaignStatus | null; page?: number | null; limit?: number | null; offset?: number | null },
): Promise<Page<CountedCampaign>> {
  let select = ctx.query.selectFrom('campaigns.campaign').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc');
  if (args.status) select = select.where('status', '=', args.status);
  const page = await ctx.page(select, pageRequest(args));
  const counts = await deliveryCounts(
    ctx,
    page.items.map((c) => c.id),
  );
  return { ...page, items: page.items.map((campaign) => ({ campaign, deliveries: counts.get(campaign.id)! })) };
}

/** One campaign with its deliveries counted. */
async function counted(ctx: RequestContext, campaign: CountedCampaign['campaign']): Promise<CountedCampaign> {
  return { campaign, deliveries: (await deliveryCounts(ctx, [campaign.id])).get(campaign.id)! };
}

/** Deliveries by status, and of the sent ones how many the provider reported delivered and read. */
export type DeliveryCounts = Record<DeliveryStatus, number> & { total: number; delivered: number; read: number };

/** Deliveries by status for each campaign: one statement for a page. */
async function deliveryCounts(ctx: RequestContext, campaignIds: readonly string[]): Promise<Map<string, DeliveryCounts>> {
  const counts = new Map<string, DeliveryCounts>();
  for (const id of campaignIds)
    counts.set(id, { ...(Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>), total: 0, delivered: 0, read: 0 });
  if (!campaignIds.length) return counts;
  const rows = await ctx.all(
    ctx.query
      .selectFrom('campaigns.delivery')
      .select((eb) => ['campaignId', 'status', eb.fn.countAll().as('n'), eb.fn.count('deliveredAt').as('delivered'), eb.fn.count('readAt').as('read')])
      .where('campaignId', '=', anyOf(campaignIds))
      .groupBy(['campaignId', 'status']),
  );
  for (const r of rows) {
    const c = counts.get(r.campaignId)!;
    c[r.status] = Number(r.n);
    c.total += Number(r.n);
    c.delivered += Number(r.delivered);
    c.read += Number(r.read);
  }
  return counts;
}

/**
 * Sends the campaign's message now to up to 5 addresses, marked as a test, with sample merge
 * values and an inert unsubscribe link, through the one message log (list_messages shows how each
 * went); nothing is recorded as a delivery.
 */
export async function sendTest(ctx: RequestContext, campaignId: string, to: readonly string[]): Promise<string[]> {
  const campaign = await findCampaign(ctx, campaignId);
  if (campaign.channel !== 'email') await requireFeature(ctx, campaign.channel, `Sending ${campaign.channel === 'sms' ? 'SMS' : 'WhatsApp'} messages`);
  // An address is an email or a phone number by the campaign's channel.
  const addresses = [...new Set(to.map((a, i) => (campaign.channel === 'email' ? parse(email(), a, `to[${i}]`) : parse(phone(), a, `to[${i}]`))))];
  const unsubscribeUrl = `${ctx.config.publicUrl}${UNSUBSCRIBE_PREFIX}test`;
  const config = campaign.channelConfig;
  await ctx.transaction(async (tx) => {
    await enqueueMessages(
      tx,
      addresses.map((address) => {
        const parts = messageParts(
          render(campaign.channel, config, { firstName: 'Alex', lastName: 'Sample', fullName: 'Alex Sample', email: address, phone: address, unsubscribeUrl }),
        );
        return {
          companyId: tx.companyId,
          channel: campaign.channel,
          to: address,
          ...parts,
          subject: parts.subject ? `[Test] ${parts.subject}` : undefined,
          extras: campaign.channel === 'email' ? { fromName: config.fromName, replyTo: config.replyTo, unsubscribeUrl } : undefined,
          campaignId: undefined,
          sender: senderOf(tx),
        };
      }),
    );
  });
  return addresses;
}

export async function listDeliveries(
  ctx: RequestContext,
  args: { campaignId: string; status?: DeliveryStatus | null; page?: number | null; limit?: number | null; offset?: number | null },
): Promise<Page<DeliveryRow>> {
  const campaign = await findCampaign(ctx, args.campaignId);
  let select = ctx.query.selectFrom('campaigns.delivery').selectAll().where('campaignId', '=', campaign.id).orderBy('createdAt').orderBy('customerId');
  if (args.status) select = select.where('status', '=', args.status);
  return ctx.page(select, pageRequest(args));
}
