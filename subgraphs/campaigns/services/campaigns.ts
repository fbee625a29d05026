/** Campaigns: written as drafts or scheduled, changed until they start, paused, resumed, cancelled, deleted. */
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../kernel/context.ts';
import { AppError, badInput, conflict, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { applyInput, field, type InputFields } from '../../kernel/inputs.ts';
import { pageRequest, type Page } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { normalizeEmail, normalizePhone, oneOf, requireText } from '../../kernel/validation.ts';
import { Campaign, CAMPAIGN_CHANNELS, DELIVERY_STATUSES, type CampaignChannel, type CampaignStatus, type ChannelConfig, type DeliveryStatus } from '../entities/campaign.ts';
import { checkChannelConfig, render } from './content.ts';
import { findSegment } from './segments.ts';
import { startSending, START_QUEUE } from './sending.ts';
import { campaignStates } from './states.ts';
import { transportFor } from './transports.ts';
import { UNSUBSCRIBE_PREFIX } from './unsubscribe.ts';

export type CampaignRow = RowOf<'campaigns.campaign'>;

export interface CampaignInput {
  name?: string | null;
  channel?: string | null;
  recipientSource?: string | null;
  segmentId?: string | null;
  channelConfig?: ChannelConfig | null;
  scheduledAt?: Date | null;
  status?: string | null;
}

/** Moves to SCHEDULED need a time in the future; the start job is queued for it (a later change leaves a stale job that finds nothing due). */
function schedule(tx: RequestContext, campaign: Campaign, at: Date | null | undefined) {
  if (!at) throw badInput('scheduledAt', 'is required to schedule a campaign');
  if (at.getTime() <= tx.now().getTime()) throw badInput('scheduledAt', 'must be in the future');
  campaign.scheduledAt = at;
  tx.runAt(START_QUEUE, at, { companyId: tx.companyId, campaignId: campaign.id });
}

const CAMPAIGN_FIELDS: InputFields<Campaign, CampaignInput> = {
  name: field.required((f, v) => requireText(f, v, 200)),
  channel: field.required((f, v) => oneOf(f, v, CAMPAIGN_CHANNELS)),
  recipientSource: field.required((f, v) => oneOf(f, v ?? 'segment', ['segment'] as const)),
};

/** The plain fields, then the segment, the channel's settings and the status (with its schedule). */
async function apply(tx: RequestContext, campaign: Campaign, input: CampaignInput, creating: boolean) {
  applyInput(campaign, input, creating, CAMPAIGN_FIELDS);
  if (input.segmentId != null || creating) {
    if (input.segmentId == null) throw badInput('segmentId', 'is required: the segment to send to');
    campaign.segmentId = (await findSegment(tx, input.segmentId)).id;
  }
  if (input.channelConfig != null || input.channel != null || creating) campaign.channelConfig = checkChannelConfig(campaign.channel, input.channelConfig ?? campaign.channelConfig);
  const status = input.status == null ? (creating ? 'DRAFT' : campaign.status) : oneOf('status', input.status, ['DRAFT', 'SCHEDULED'] as const);
  if (!creating && status !== campaign.status) campaignStates.assert(campaign.status, status);
  if (status === 'SCHEDULED') {
    // A new time, or a draft becoming scheduled (at the time it was given, or the one it holds).
    if (creating || campaign.status !== 'SCHEDULED' || input.scheduledAt !== undefined) schedule(tx, campaign, input.scheduledAt !== undefined ? input.scheduledAt : campaign.scheduledAt);
  } else if (input.scheduledAt !== undefined) {
    if (input.scheduledAt && input.scheduledAt.getTime() <= tx.now().getTime()) throw badInput('scheduledAt', 'must be in the future');
    campaign.scheduledAt = input.scheduledAt;
  }
  campaign.status = status;
}

export async function createCampaign(ctx: RequestContext, input: CampaignInput): Promise<Campaign> {
  return ctx.transaction(async (tx) => {
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
}

/** The campaign, locked for a change inside `tx`. */
export async function lockCampaign(tx: RequestContext, campaignId: unknown, field = 'campaignId'): Promise<Campaign> {
  if (!isUuid(campaignId)) throw badInput(field, 'must be a campaign id');
  const campaign = await tx.em.findOne(Campaign, { id: campaignId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!campaign) throw notFound('Campaign');
  return campaign;
}

export async function updateCampaign(ctx: RequestContext, campaignId: unknown, input: CampaignInput): Promise<Campaign> {
  return ctx.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, campaignId);
    if (campaign.status !== 'DRAFT' && campaign.status !== 'SCHEDULED') {
      throw conflict(`The campaign is ${campaign.status}: only a DRAFT or SCHEDULED campaign can be changed`, { status: campaign.status });
    }
    await apply(tx, campaign, input, false);
    return campaign;
  });
}

/** Deletes a campaign that is not sending and was never sent (its deliveries go with it); answers its id. */
export async function deleteCampaign(ctx: RequestContext, campaignId: unknown): Promise<string> {
  return ctx.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, campaignId);
    if (campaign.status === 'SENT' || campaign.status === 'SENDING') {
      throw conflict(`A ${campaign.status} campaign cannot be deleted${campaign.status === 'SENDING' ? ': pause or cancel it first' : ''}`, { status: campaign.status });
    }
    tx.em.remove(campaign);
    return campaign.id;
  });
}

export async function pauseCampaign(ctx: RequestContext, campaignId: unknown): Promise<Campaign> {
  return ctx.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, campaignId);
    campaignStates.assert(campaign.status, 'PAUSED');
    campaign.status = 'PAUSED';
    campaign.statusReason = 'Paused by the business';
    // Its chain of batch jobs ends at the next batch (services/sending.ts checks the status).
    campaign.runner = null;
    return campaign;
  });
}

/** PAUSED → SENDING: continues a send (or starts one that was paused before it began). */
export async function resumeCampaign(ctx: RequestContext, campaignId: unknown): Promise<Campaign> {
  return ctx.transaction(async (tx) => {
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
  });
}

/** The send route: DRAFT, SCHEDULED (now rather than later) or PAUSED → SENDING; a second call while sending is 409. */
export async function sendCampaign(ctx: RequestContext, campaignId: unknown): Promise<Campaign> {
  return ctx.transaction(async (tx) => {
    const campaign = await lockCampaign(tx, campaignId, 'id');
    campaignStates.assert(campaign.status, 'SENDING');
    await startSending(tx, campaign);
    return campaign;
  });
}

export async function cancelCampaign(ctx: RequestContext, campaignId: unknown): Promise<Campaign> {
  return ctx.transaction(async (tx) => {
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
    return campaign;
  });
}

export async function findCampaign(ctx: RequestContext, campaignId: unknown): Promise<CampaignRow> {
  if (!isUuid(campaignId)) throw badInput('campaignId', 'must be a campaign id');
  const campaign = await ctx.find('campaigns.campaign', campaignId);
  if (!campaign) throw notFound('Campaign');
  return campaign;
}

export function listCampaigns(ctx: RequestContext, args: { status?: CampaignStatus | null; page?: number | null; limit?: number | null; offset?: number | null }): Promise<Page<CampaignRow>> {
  let select = ctx.query.selectFrom('campaigns.campaign').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc');
  if (args.status) select = select.where('status', '=', args.status);
  return ctx.page(select, pageRequest(args));
}

export type DeliveryCounts = Record<DeliveryStatus, number> & { total: number };

/** Deliveries by status for each campaign: one statement for a page. */
export async function deliveryCounts(ctx: RequestContext, campaignIds: readonly string[]): Promise<Map<string, DeliveryCounts>> {
  const counts = new Map<string, DeliveryCounts>();
  for (const id of campaignIds) counts.set(id, { ...(Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<DeliveryStatus, number>), total: 0 });
  if (!campaignIds.length) return counts;
  const rows = await ctx.all(
    ctx.query
      .selectFrom('campaigns.delivery')
      .select((eb) => ['campaignId', 'status', eb.fn.countAll().as('n')])
      .where('campaignId', '=', anyOf(campaignIds))
      .groupBy(['campaignId', 'status']),
  );
  for (const r of rows) {
    const c = counts.get(r.campaignId)!;
    c[r.status] = Number(r.n);
    c.total += Number(r.n);
  }
  return counts;
}

/**
 * Sends the campaign's message now to up to 5 addresses, marked as a test, with sample merge
 * values and an inert unsubscribe link; nothing is recorded as a delivery.
 */
export async function sendTest(ctx: RequestContext, campaignId: unknown, to: unknown): Promise<string[]> {
  const campaign = await findCampaign(ctx, campaignId);
  if (!Array.isArray(to) || to.length < 1 || to.length > 5) throw badInput('to', 'must list 1 to 5 addresses');
  const addresses = to.map((a, i) => (campaign.channel === 'email' ? normalizeEmail(`to[${i}]`, a) : normalizePhone(`to[${i}]`, a)));
  const transport = transportFor(ctx.runtime, campaign.channel as CampaignChannel);
  const unsubscribeUrl = `${ctx.config.publicUrl}${UNSUBSCRIBE_PREFIX}test`;
  for (const address of [...new Set(addresses)]) {
    const message = render(campaign.channel, campaign.channelConfig, { firstName: 'Alex', lastName: 'Sample', fullName: 'Alex Sample', email: address, phone: address, unsubscribeUrl });
    try {
      await transport.send({
        ...message,
        subject: message.subject ? `[Test] ${message.subject}` : undefined,
        channel: campaign.channel,
        to: address,
        fromName: campaign.channelConfig.fromName,
        replyTo: campaign.channelConfig.replyTo,
        unsubscribeUrl,
        idempotencyKey: `test:${newId()}`,
      });
    } catch (error: any) {
      throw badInput('to', `the test message to ${address} was not accepted: ${error?.message ?? error}`);
    }
  }
  return [...new Set(addresses)];
}

export async function listDeliveries(ctx: RequestContext, args: { campaignId: unknown; status?: DeliveryStatus | null; page?: number | null; limit?: number | null; offset?: number | null }) {
  const campaign = await findCampaign(ctx, args.campaignId);
  let select = ctx.query.selectFrom('campaigns.delivery').selectAll().where('campaignId', '=', campaign.id).orderBy('createdAt').orderBy('customerId');
  if (args.status) select = select.where('status', '=', args.status);
  return ctx.page(select, pageRequest(args));
}
