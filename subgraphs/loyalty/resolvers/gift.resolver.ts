import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import type { OfferView, RedemptionView } from '../services/gift-views.ts';
import * as gifts from '../services/gifts.ts';
import {
  ClaimsToIssueInput,
  GiftClaimInput,
  GiftOfferId,
  GiftOfferUpdate,
  NewGiftOffer,
  RedeemQuantity,
  RedemptionCode,
  RedemptionFilter,
  RedemptionId,
} from './gift.inputs.ts';
import {
  ClaimInput,
  GiftClaimTokenNode,
  GiftOfferInput,
  GiftOfferListArgs,
  GiftOfferNode,
  GiftOfferPage,
  RedeemInput,
  RedemptionListArgs,
  RedemptionNode,
  RedemptionPage,
} from './gift.types.ts';
import { tierNode } from './loyalty.resolver.ts';

const offerNode = ({ offer: o, minTier, availability }: OfferView): GiftOfferNode => ({
  id: o.id,
  title: o.title,
  description: o.description ?? null,
  imageUrl: o.imageUrl ?? null,
  pointsCost: o.pointsCost,
  stock: o.stock ?? null,
  limitPerCustomer: o.limitPerCustomer ?? null,
  startsAt: o.startsAt ?? null,
  endsAt: o.endsAt ?? null,
  minTierId: o.minTierId ?? null,
  minTier: tierNode(minTier),
  status: o.status,
  redeemable: availability ? availability.reason === null : null,
  unavailableReason: availability ? availability.reason : null,
  pointsShort: availability ? availability.pointsShort : null,
  createdAt: o.createdAt,
  updatedAt: o.updatedAt,
});

const redemptionNode = ({ redemption: r, title, balanceAfter }: RedemptionView): RedemptionNode => ({
  id: r.id,
  offerId: r.offerId,
  title,
  customerId: r.customerId ?? null,
  quantity: r.quantity,
  points: r.points,
  balanceAfter,
  code: r.code,
  status: r.status,
  createdAt: r.createdAt,
  usedAt: r.usedAt ?? null,
  cancelledAt: r.cancelledAt ?? null,
});

/** Gift offers, redemptions and claims: the storefront's routes and the merchant's tools. */
@Resolver(() => GiftOfferNode)
export class GiftResolver {
  @Requires('optionalCustomer', 'loyalty')
  @Query(() => GiftOfferPage, { description: 'The gifts offered now, cheapest first; with a customer token each says whether they can redeem it.' })
  async shopGiftOffers(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await gifts.openOffers(ctx, args);
    return { ...page, items: page.items.map(offerNode) };
  }

  @Requires('optionalCustomer', 'loyalty')
  @Query(() => GiftOfferNode, { description: 'One gift offered now.' })
  async shopGiftOffer(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: 'The gift offer.' }) id: string) {
    return offerNode(await gifts.openOffer(ctx, parse(GiftOfferId, id, 'id')));
  }

  @Requires('customer', 'loyalty')
  @Query(() => RedemptionPage, { description: "The signed-in customer's gifts, newest first." })
  async myRedemptions(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await gifts.myRedemptions(ctx, args);
    return { ...page, items: page.items.map(redemptionNode) };
  }

  @Requires('merchant', 'loyalty')
  @Query(() => GiftOfferPage, { description: "The company's gift offers, newest first, in any state." })
  async giftOffers(@Ctx() ctx: RequestContext, @Args(() => GiftOfferListArgs) args: GiftOfferListArgs) {
    const page = await gifts.listOffers(ctx, args);
    return { ...page, items: page.items.map(offerNode) };
  }

  @Requires('merchant', 'loyalty')
  @Query(() => RedemptionPage, { description: 'Gifts given, newest first.' })
  async redemptions(@Ctx() ctx: RequestContext, @Args(() => RedemptionListArgs) args: RedemptionListArgs) {
    const page = await gifts.listRedemptions(ctx, parse(RedemptionFilter, args));
    return { ...page, items: page.items.map(redemptionNode) };
  }

  @Requires('merchant', 'loyalty')
  @Mutation(() => GiftOfferNode, { description: 'Creates a gift offer (a draft unless status is active).' })
  async createGiftOffer(@Ctx() ctx: RequestContext, @Arg('input', () => GiftOfferInput, { description: 'The gift to offer.' }) input: GiftOfferInput) {
    return offerNode(await gifts.createOffer(ctx, parse(NewGiftOffer, input)));
  }

  @Requires('merchant', 'loyalty')
  @Mutation(() => GiftOfferNode, { description: 'Changes a gift offer; fields left out keep their value.' })
  async updateGiftOffer(
    @Ctx() ctx: RequestContext,
    @Arg('offerId', () => ID, { description: 'The gift offer to change.' }) offerId: string,
    @Arg('input', () => GiftOfferInput, { description: 'The fields to change.' }) input: GiftOfferInput,
  ) {
    return offerNode(await gifts.updateOffer(ctx, parse(GiftOfferId, offerId, 'offerId'), parse(GiftOfferUpdate, input)));
  }

  @Requires('customer', 'loyalty')
  @Mutation(() => RedemptionNode, {
    description:
      'Spends points on a gift: 409 CONFLICT with the reason INSUFFICIENT_POINTS, OUT_OF_STOCK, LIMIT_REACHED, TIER_REQUIRED or OFFER_NOT_ACTIVE when it cannot.',
  })
  async redeemGiftOffer(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID, { description: 'The gift offer.' }) id: string,
    @Arg('input', () => RedeemInput, { nullable: true, description: 'How many (default 1).' }) input?: RedeemInput,
  ) {
    return redemptionNode(await gifts.redeem(ctx, parse(GiftOfferId, id, 'id'), parse(RedeemQuantity, input?.quantity, 'quantity')));
  }

  @Requires('optionalCustomer', 'loyalty')
  @Mutation(() => RedemptionNode, {
    description:
      'Claims a gift free: with a claim token (a customer token attaches it to the customer), or a gift costing no points as the signed-in customer.',
  })
  async claimGift(@Ctx() ctx: RequestContext, @Arg('input', () => ClaimInput, { description: 'The claim token, or the free gift.' }) input: ClaimInput) {
    return redemptionNode(await gifts.claim(ctx, parse(GiftClaimInput, input)));
  }

  @Requires('merchant', 'loyalty')
  @Mutation(() => [GiftClaimTokenNode], { description: 'Issues single-use claim tokens for a gift (valid 30 days), for links and campaigns; shown once.' })
  async issueGiftClaims(
    @Ctx() ctx: RequestContext,
    @Arg('offerId', () => ID, { description: 'The gift offer.' }) offerId: string,
    @Arg('count', () => Int, { nullable: true, description: 'How many tokens (or give recipients). Between 1 and 500.' }) count?: number,
    @Arg('recipients', () => [String], { nullable: true, description: 'One token per recipient (an email, phone or customer id), at most 500.' })
    recipients?: string[],
  ) {
    return gifts.issueClaims(ctx, parse(ClaimsToIssueInput, { offerId, count, recipients }));
  }

  @Requires('merchant', 'loyalty')
  @Mutation(() => RedemptionNode, { description: 'Records that a gift was handed over, by the code the customer shows (409 when used or cancelled).' })
  async markRedemptionUsed(
    @Ctx() ctx: RequestContext,
    @Arg('code', () => String, { description: 'The redemption code shown at the counter (any case).' }) code: string,
  ) {
    return redemptionNode(await gifts.markUsed(ctx, parse(RedemptionCode, code, 'code')));
  }

  @Requires('merchant', 'loyalty')
  @Mutation(() => RedemptionNode, { description: 'Takes back an issued gift: its points and stock return (409 when used or cancelled).' })
  async cancelRedemption(@Ctx() ctx: RequestContext, @Arg('redemptionId', () => ID, { description: 'The redemption.' }) redemptionId: string) {
    return redemptionNode(await gifts.cancelRedemption(ctx, parse(RedemptionId, redemptionId, 'redemptionId')));
  }
}
