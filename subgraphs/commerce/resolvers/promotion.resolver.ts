import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { toMoney } from '../../kernel/money.ts';
import { Decimal } from '../../kernel/scalars.ts';
import type { Promotion, PromotionChannel } from '../entities/promotion.ts';
import { parse } from '../../kernel/schemas.ts';
import * as promotions from '../services/promotions.ts';
import { NewPromotion, PromotionCheckInput, PromotionId, PromotionUpdate } from './promotion.inputs.ts';
import {
  CreatePromotionInput,
  PromotionChannelEnum,
  PromotionListArgs,
  PromotionNode,
  PromotionPage,
  PromotionValidationNode,
  UpdatePromotionInput,
} from './promotion.types.ts';

export const promotionNode = (p: Omit<Promotion, 'companyId'>): PromotionNode => ({
  id: p.id,
  name: p.name,
  code: p.code,
  description: p.description ?? null,
  type: p.type,
  value: p.type === 'percentage' ? p.percent : p.type === 'fixed' ? toMoney(p.amountMinor!, p.currency).amount : null,
  bookingEnabled: p.bookingEnabled,
  onlineEnabled: p.onlineEnabled,
  posEnabled: p.posEnabled,
  startsAt: p.startsAt ?? null,
  endsAt: p.endsAt ?? null,
  usageLimit: p.usageLimit ?? null,
  perCustomerLimit: p.perCustomerLimit ?? null,
  minimumAmount: p.minimumAmountMinor == null ? null : toMoney(p.minimumAmountMinor, p.currency),
  usedCount: p.usedCount,
  remainingUses: p.usageLimit == null ? null : Math.max(0, p.usageLimit - p.usedCount),
  active: p.active,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

/** Promotion codes (commerce): the merchant's tools, and validation of a code for an amount. */
@Resolver(() => PromotionNode)
export class PromotionResolver {
  @Requires('merchant', 'promotions')
  @Query(() => PromotionPage, { description: "The company's promotions, newest first, with their usage." })
  async promotions(@Ctx() ctx: RequestContext, @Args(() => PromotionListArgs) args: PromotionListArgs) {
    const page = await promotions.listPromotions(ctx, args);
    return { ...page, items: page.items.map(promotionNode) };
  }

  @Requires('merchant', 'promotions')
  @Query(() => PromotionNode, { description: 'One promotion with its usage.' })
  async promotion(@Ctx() ctx: RequestContext, @Arg('promotionId', () => ID, { description: 'The promotion (from list_promotions).' }) promotionId: string) {
    return promotionNode(await promotions.getPromotion(ctx, parse(PromotionId, promotionId, 'promotionId')));
  }

  @Requires('merchant', 'promotions')
  @Query(() => PromotionValidationNode, { description: 'Whether a code applies to an amount on a channel, and the discount it gives (nothing is used up).' })
  async validatePromotion(
    @Ctx() ctx: RequestContext,
    @Arg('promotionCode', () => String, { description: 'The code, in any case.' }) promotionCode: string,
    @Arg('channel', () => PromotionChannelEnum, { description: 'booking, online or pos.' }) channel: PromotionChannel,
    @Arg('amount', () => Decimal, { description: 'The amount in major units (49.90).' }) amount: string,
  ): Promise<PromotionValidationNode> {
    const result = await promotions.validatePromotion(ctx, parse(PromotionCheckInput, { promotionCode, channel, amount }));
    return {
      isValid: result.isValid,
      discountAmount: result.discountAmount,
      errorCode: result.errorCode,
      promotion: result.promotion ? promotionNode(result.promotion) : null,
    };
  }

  @Requires('merchant', 'promotions')
  @Mutation(() => PromotionNode, { description: 'Creates a promotion code (409 CONFLICT naming code when the company has it already).' })
  async createPromotion(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CreatePromotionInput, { description: 'The promotion to create.' }) input: CreatePromotionInput,
  ) {
    return promotionNode(await promotions.createPromotion(ctx, parse(NewPromotion, input)));
  }

  @Requires('merchant', 'promotions')
  @Mutation(() => PromotionNode, { description: 'Changes a promotion; uses already taken stay.' })
  async updatePromotion(
    @Ctx() ctx: RequestContext,
    @Arg('promotionId', () => ID, { description: 'The promotion to change.' }) promotionId: string,
    @Arg('input', () => UpdatePromotionInput, { description: 'The fields to change.' }) input: UpdatePromotionInput,
  ) {
    return promotionNode(await promotions.updatePromotion(ctx, parse(PromotionId, promotionId, 'promotionId'), parse(PromotionUpdate, input)));
  }

  @Requires('merchant', 'promotions')
  @Mutation(() => PromotionNode, { description: 'Takes a promotion out of use (orders that used it keep their discount).' })
  async deactivatePromotion(@Ctx() ctx: RequestContext, @Arg('promotionId', () => ID, { description: 'The promotion to deactivate.' }) promotionId: string) {
    return promotionNode(await promotions.deactivatePromotion(ctx, parse(PromotionId, promotionId, 'promotionId')));
  }
}
