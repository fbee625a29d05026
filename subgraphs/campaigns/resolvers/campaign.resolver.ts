import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import type { Campaign } from '../entities/campaign.ts';
import * as campaigns from '../services/campaigns.ts';
import { CampaignInput, CampaignListArgs, CampaignNode, CampaignPage, DeletedCampaignNode, DeliveryListArgs, DeliveryPage, TestSendNode } from './campaign.types.ts';

/** Campaigns as nodes, with their deliveries counted by status (one statement for all). */
async function campaignNodes(ctx: RequestContext, rows: readonly Campaign[]): Promise<CampaignNode[]> {
  const counts = await campaigns.deliveryCounts(
    ctx,
    rows.map((c) => c.id),
  );
  return rows.map((c) => {
    const n = counts.get(c.id)!;
    return {
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
      deliveries: { total: n.total, pending: n.PENDING, sending: n.SENDING, sent: n.SENT, failed: n.FAILED, skipped: n.SKIPPED, cancelled: n.CANCELLED },
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    };
  });
}

const one = async (ctx: RequestContext, row: Campaign) => (await campaignNodes(ctx, [row]))[0];
const campaignId = () => Arg('campaignId', () => ID, { description: 'The campaign.' });

/** Campaigns: the merchant's tools and the send route (REST only: there is no MCP send tool). */
@Resolver(() => CampaignNode)
export class CampaignResolver {
  @Requires('merchant')
  @Query(() => CampaignPage, { description: "The company's campaigns, newest first, with delivery counts." })
  async campaigns(@Ctx() ctx: RequestContext, @Args(() => CampaignListArgs) args: CampaignListArgs) {
    const page = await campaigns.listCampaigns(ctx, args);
    return { ...page, items: await campaignNodes(ctx, page.items) };
  }

  @Requires('merchant')
  @Query(() => CampaignNode, { description: 'One campaign with its deliveries counted by status.' })
  async campaign(@Ctx() ctx: RequestContext, @campaignId() id: string) {
    return one(ctx, await campaigns.findCampaign(ctx, id));
  }

  @Requires('merchant')
  @Query(() => DeliveryPage, { description: "A campaign's recipients and where each is." })
  async campaignDeliveries(@Ctx() ctx: RequestContext, @Args(() => DeliveryListArgs) args: DeliveryListArgs) {
    const page = await campaigns.listDeliveries(ctx, args);
    return {
      ...page,
      items: page.items.map((d) => ({
        customerId: d.customerId,
        address: d.address ?? null,
        status: d.status,
        skipReason: d.skipReason ?? null,
        attempts: d.attempts,
        nextAttemptAt: d.status === 'PENDING' ? d.nextAttemptAt : null,
        lastError: d.lastError ?? null,
        sentAt: d.sentAt ?? null,
      })),
    };
  }

  @Requires('merchant')
  @Mutation(() => CampaignNode, { description: 'Creates a campaign: DRAFT, or SCHEDULED with a scheduledAt in the future.' })
  async createCampaign(@Ctx() ctx: RequestContext, @Arg('input', () => CampaignInput, { description: 'The campaign.' }) input: CampaignInput) {
    return one(ctx, await campaigns.createCampaign(ctx, input));
  }

  @Requires('merchant')
  @Mutation(() => CampaignNode, { description: 'Changes a DRAFT or SCHEDULED campaign (409 once sending has started).' })
  async updateCampaign(@Ctx() ctx: RequestContext, @campaignId() id: string, @Arg('input', () => CampaignInput, { description: 'The fields to change.' }) input: CampaignInput) {
    return one(ctx, await campaigns.updateCampaign(ctx, id, input));
  }

  @Requires('merchant')
  @Mutation(() => DeletedCampaignNode, { description: 'Deletes a campaign (409 when SENT or SENDING).' })
  async deleteCampaign(@Ctx() ctx: RequestContext, @campaignId() id: string) {
    return { id: await campaigns.deleteCampaign(ctx, id), deleted: true };
  }

  @Requires('merchant')
  @Mutation(() => CampaignNode, { description: 'Pauses a SENDING or SCHEDULED campaign.' })
  async pauseCampaign(@Ctx() ctx: RequestContext, @campaignId() id: string) {
    return one(ctx, await campaigns.pauseCampaign(ctx, id));
  }

  @Requires('merchant')
  @Mutation(() => CampaignNode, { description: 'Resumes a PAUSED campaign: sending continues where it stopped.' })
  async resumeCampaign(@Ctx() ctx: RequestContext, @campaignId() id: string) {
    return one(ctx, await campaigns.resumeCampaign(ctx, id));
  }

  @Requires('merchant')
  @Mutation(() => CampaignNode, { description: 'Cancels a campaign that is not SENT; deliveries not yet sent are cancelled.' })
  async cancelCampaign(@Ctx() ctx: RequestContext, @campaignId() id: string) {
    return one(ctx, await campaigns.cancelCampaign(ctx, id));
  }

  @Requires('merchant')
  @Mutation(() => TestSendNode, { description: 'Sends the message now to up to 5 addresses as a test; nothing is recorded as a delivery.' })
  async sendTestCampaign(@Ctx() ctx: RequestContext, @campaignId() id: string, @Arg('to', () => [String], { description: 'Emails (email campaigns) or phone numbers, 1 to 5.' }) to: string[]) {
    return { campaignId: id, sentTo: await campaigns.sendTest(ctx, id, to) };
  }

  @Requires('merchant')
  @Mutation(() => CampaignNode, { description: 'Starts sending a DRAFT, SCHEDULED or PAUSED campaign now (the REST route POST /v6/merchant/campaigns/{id}/send; 409 while it is SENDING).' })
  async sendCampaign(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: 'The campaign.' }) id: string) {
    return one(ctx, await campaigns.sendCampaign(ctx, id));
  }
}
