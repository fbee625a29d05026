import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { parse } from '../../kernel/schemas.ts';
import * as campaigns from '../services/campaigns.ts';
import type { CountedCampaign, DeliveryRow } from '../services/campaigns.ts';
import { CampaignId, CampaignUpdate, NewCampaignInput, TestAddresses } from './campaign.inputs.ts';
import {
  CampaignInput,
  CampaignListArgs,
  CampaignNode,
  CampaignPage,
  DeletedCampaignNode,
  DeliveryListArgs,
  DeliveryNode,
  DeliveryPage,
  TestSendNode,
} from './campaign.types.ts';

/** A campaign as its node, with its deliveries counted by status. */
const campaignNode = ({ campaign: c, deliveries: n }: CountedCampaign): CampaignNode => ({
  id: c.id,
  name: c.name,
  channel: c.channel,
  recipientSource: c.recipientSource,
  segmentId: c.segmentId,
  channelConfig: c.channelConfig,
  scheduledAt: c.scheduledAt ?? null,
  status: c.status,
  statusReason: c.statusReason ?? null,
  startedAt: c.startedAt ?? null,
  finishedAt: c.finishedAt ?? null,
  deliveries: {
    total: n.total,
    pending: n.PENDING,
    sending: n.SENDING,
    sent: n.SENT,
    delivered: n.delivered,
    read: n.read,
    failed: n.FAILED,
    skipped: n.SKIPPED,
    cancelled: n.CANCELLED,
  },
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

const deliveryNode = (d: DeliveryRow): DeliveryNode => ({
  customerId: d.customerId,
  address: d.address ?? null,
  status: d.status,
  skipReason: d.skipReason ?? null,
  attempts: d.attempts,
  nextAttemptAt: d.status === 'SENDING' && d.lastError ? d.nextAttemptAt : null,
  lastError: d.lastError ?? null,
  sentAt: d.sentAt ?? null,
  deliveredAt: d.deliveredAt ?? null,
  readAt: d.readAt ?? null,
});

const campaignId = () => Arg('campaignId', () => ID, { description: 'The campaign.' });

/** Campaigns: the merchant's tools and the send route (REST only: there is no MCP send tool). */
@Resolver(() => CampaignNode)
export class CampaignResolver {
  @Requires('merchant', 'campaigns')
  @Query(() => CampaignPage, { description: "The company's campaigns, newest first, with delivery counts." })
  async campaigns(@Ctx() ctx: RequestContext, @Args(() => CampaignListArgs) args: CampaignListArgs) {
    const page = await campaigns.listCampaigns(ctx, args);
    return { ...page, items: page.items.map(campaignNode) };
  }

  @Requires('merchant', 'campaigns')
  @Query(() => CampaignNode, { description: 'One campaign with its deliveries counted by status.' })
  async campaign(@Ctx() ctx: RequestContext, @campaignId() id: string) {
    return campaignNode(await campaigns.getCampaign(ctx, parse(CampaignId, id, 'campaignId')));
  }

  @Requires('merchant', 'campaigns')
  @Query(() => DeliveryPage, { description: "A campaign's recipients and where each is." })
  async campaignDeliveries(@Ctx() ctx: RequestContext, @Args(() => DeliveryListArgs) args: DeliveryListArgs) {
    const page = await campaigns.listDeliveries(ctx, { ...args, campaignId: parse(CampaignId, args.campaignId, 'campaignId') });
    return { ...page, items: page.items.map(deliveryNode) };
  }

  @Requires('merchant', 'campaigns')
  @Mutation(() => CampaignNode, { description: 'Creates a campaign: DRAFT, or SCHEDULED with a scheduledAt in the future.' })
  async createCampaign(@Ctx() ctx: RequestContext, @Arg('input', () => CampaignInput, { description: 'The campaign.' }) input: CampaignInput) {
    return campaignNode(await campaigns.createCampaign(ctx, parse(NewCampaignInput, input)));
  }

  @Requires('merchant', 'campaigns')
  @Mutation(() => CampaignNode, { description: 'Changes a DRAFT or SCHEDULED campaign (409 once sending has started).' })
  async updateCampaign(
    @Ctx() ctx: RequestContext,
    @campaignId() id: string,
    @Arg('input', () => CampaignInput, { description: 'The fields to change.' }) input: CampaignInput,
  ) {
    return campaignNode(await campaigns.updateCampaign(ctx, parse(CampaignId, id, 'campaignId'), parse(CampaignUpdate, input)));
  }

  @Requires('merchant', 'campaigns')
  @Mutation(() => DeletedCampaignNode, { description: 'Deletes a campaign (409 when SENT or SENDING).' })
  async deleteCampaign(@Ctx() ctx: RequestContext, @campaignId() id: string) {
    return { id: await campaigns.deleteCampaign(ctx, parse(CampaignId, id, 'campaignId')), deleted: true };
  }

  @Requires('merchant', 'campaigns')
  @Mutation(() => CampaignNode, { description: 'Pauses a SENDING or SCHEDULED campaign.' })
  async pauseCampaign(@Ctx() ctx: RequestContext, @campaignId() id: string) {
    return campaignNode(await campaigns.pauseCampaign(ctx, parse(CampaignId, id, 'campaignId')));
  }

  @Requires('merchant', 'campaigns')
  @Mutation(() => CampaignNode, { description: 'Resumes a PAUSED campaign: sending continues where it stopped.' })
  async resumeCampaign(@Ctx() ctx: RequestContext, @campaignId() id: string) {
    return campaignNode(await campaigns.resumeCampaign(ctx, parse(CampaignId, id, 'campaignId')));
  }

  @Requires('merchant', 'campaigns')
  @Mutation(() => CampaignNode, { description: 'Cancels a campaign that is not SENT; deliveries not yet sent are cancelled.' })
  async cancelCampaign(@Ctx() ctx: RequestContext, @campaignId() id: string) {
    return campaignNode(await campaigns.cancelCampaign(ctx, parse(CampaignId, id, 'campaignId')));
  }

  @Requires('merchant', 'campaigns')
  @Mutation(() => TestSendNode, { description: 'Sends the message now to up to 5 addresses as a test; nothing is recorded as a delivery.' })
  async sendTestCampaign(
    @Ctx() ctx: RequestContext,
    @campaignId() id: string,
    @Arg('to', () => [String], { description: 'Emails (email campaigns) or phone numbers, 1 to 5.' }) to: string[],
  ) {
    return { campaignId: id, sentTo: await campaigns.sendTest(ctx, parse(CampaignId, id, 'campaignId'), parse(TestAddresses, to, 'to')) };
  }

  @Requires('merchant', 'campaigns')
  @Mutation(() => CampaignNode, {
    description: 'Starts sending a DRAFT, SCHEDULED or PAUSED campaign now (the REST route POST /v6/merchant/campaigns/{id}/send; 409 while it is SENDING).',
  })
  async sendCampaign(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: 'The campaign.' }) id: string) {
    return campaignNode(await campaigns.sendCampaign(ctx, parse(CampaignId, id, 'id')));
  }
}
