/** GraphQL shapes of gift offers, redemptions and claim tokens, and their inputs. */
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { GiftStatus, RedemptionStatus } from '../entities/gift.ts';
import type { UnavailableReason } from '../services/gift-views.ts';
import { MembershipTierNode } from './loyalty.types.ts';

export const GiftStatusEnum = stateEnum<GiftStatus>('GiftStatus', 'Whether a gift is offered.', {
  draft: 'Being prepared: not shown, not redeemable.',
  active: 'Offered (between startsAt and endsAt when set).',
  archived: 'No longer offered.',
});

export const RedemptionStatusEnum = stateEnum<RedemptionStatus>('RedemptionStatus', 'Where a given gift stands.', {
  ISSUED: 'Given: the customer shows its code at the counter.',
  USED: 'Handed over (mark_redemption_used). Final.',
  CANCELLED: 'Taken back (cancel_redemption): points and stock returned. Final.',
});

export const GiftUnavailableReasonEnum = stateEnum<UnavailableReason>('GiftUnavailableReason', 'Why the signed-in customer cannot redeem a gift now.', {
  INSUFFICIENT_POINTS: 'Their balance is below the points cost.',
  TIER_REQUIRED: 'They have not reached the tier it needs.',
  LIMIT_REACHED: 'They have had it as often as allowed.',
  OUT_OF_STOCK: 'None left.',
});

@ObjectType('GiftOffer', { description: 'A gift customers redeem for points, or claim free.' })
export class GiftOfferNode {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
  @Field(() => Int, { description: 'Points per gift (0: free to claim).' }) pointsCost!: number;
  @Field(() => Int, { nullable: true, description: 'Gifts left; null: unlimited.' }) stock?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many one customer may have; null: no limit.' }) limitPerCustomer?: number | null;
  @Field(() => DateTime, { nullable: true }) startsAt?: Date | null;
  @Field(() => DateTime, { nullable: true }) endsAt?: Date | null;
  @Field(() => ID, { nullable: true, description: 'The tier a customer needs (lifetime points), if any.' }) minTierId?: string | null;
  @Field(() => MembershipTierNode, { nullable: true }) minTier?: MembershipTierNode | null;
  @Field(() => GiftStatusEnum) status!: GiftStatus;
  @Field(() => Boolean, { nullable: true, description: 'With a customer token: whether they can redeem it now; null otherwise.' }) redeemable?: boolean | null;
  @Field(() => GiftUnavailableReasonEnum, { nullable: true, description: 'With a customer token: why they cannot redeem it now.' })
  unavailableReason?: UnavailableReason | null;
  @Field(() => Int, { nullable: true, description: 'With a customer token: the points they still need for one (0 when their balance covers it).' })
  pointsShort?: number | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const GiftOfferPage = PageOf(GiftOfferNode, 'GiftOfferPage');

@ObjectType('GiftRedemption', { description: 'A gift given to a customer, shown at the counter by its code.' })
export class RedemptionNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) offerId!: string;
  @Field(() => String, { description: "The gift's title." }) title!: string;
  @Field(() => ID, { nullable: true, description: 'Null for a gift claimed without signing in.' }) customerId?: string | null;
  @Field(() => Int) quantity!: number;
  @Field(() => Int, { description: 'Points it cost in all (0 for a claim).' }) points!: number;
  @Field(() => Int, { nullable: true, description: "The customer's points balance right after it (null for a claim, which costs none)." }) balanceAfter?:
    number | null;
  @Field(() => String, { description: 'The code to show at the counter.' }) code!: string;
  @Field(() => RedemptionStatusEnum) status!: RedemptionStatus;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime, { nullable: true }) usedAt?: Date | null;
  @Field(() => DateTime, { nullable: true }) cancelledAt?: Date | null;
}

export const RedemptionPage = PageOf(RedemptionNode, 'GiftRedemptionPage');

@ObjectType('GiftClaimToken', { description: 'A single-use link token to claim a gift free (shown once).' })
export class GiftClaimTokenNode {
  @Field(() => String, { description: 'Give it to POST /gifts/claim as claimToken.' }) token!: string;
  @Field(() => String, { nullable: true }) recipient?: string | null;
  @Field(() => DateTime) expiresAt!: Date;
}

@InputType({ description: 'A gift offer.' })
export class GiftOfferInput {
  @Field(() => String, { nullable: true, description: 'What the gift is. Required when creating.' }) title?: string;
  @Field(() => String, { nullable: true, description: 'More about it, for customers.' }) description?: string;
  @Field(() => String, { nullable: true, description: 'An image URL (http or https).' }) imageUrl?: string;
  @Field(() => Int, { nullable: true, description: 'Points per gift; 0 makes it free to claim. Required when creating. Between 0 and 10000000.' })
  pointsCost?: number;
  @Field(() => Int, { nullable: true, description: 'Gifts available; null or left out: unlimited. Between 0 and 10000000.' }) stock?: number;
  @Field(() => Int, { nullable: true, description: 'How many one customer may have; null: no limit. Between 1 and 1000.' }) limitPerCustomer?: number;
  @Field(() => DateTime, { nullable: true, description: 'Offered from (ISO-8601 with offset).' }) startsAt?: Date;
  @Field(() => DateTime, { nullable: true, description: 'Offered until, exclusive.' }) endsAt?: Date;
  @Field(() => ID, { nullable: true, description: 'The membership tier a customer needs (from list_membership_tiers); null: anyone.' }) minTierId?: string;
  @Field(() => GiftStatusEnum, { nullable: true, description: 'draft (default), active or archived.' }) status?: GiftStatus;
}

@InputType({ description: 'How many to redeem.' })
export class RedeemInput {
  @Field(() => Int, { nullable: true, description: 'How many, 1 to 10 (default 1).' }) quantity?: number;
}

@InputType({ description: 'What to claim: a claim token, or (signed in) a gift that costs no points.' })
export class ClaimInput {
  @Field(() => String, { nullable: true, description: 'The token from a gift link or campaign.' }) claimToken?: string;
  @Field(() => ID, { nullable: true, description: 'A free gift (pointsCost 0) to claim as the signed-in customer.' }) offerId?: string;
}

@ArgsType()
export class GiftOfferListArgs extends PageArgs {
  @Field(() => GiftStatusEnum, { nullable: true, description: 'Only gifts in this state.' }) status?: GiftStatus;
}

@ArgsType()
export class RedemptionListArgs extends PageArgs {
  @Field(() => RedemptionStatusEnum, { nullable: true, description: 'Only redemptions in this state.' }) status?: RedemptionStatus;
  @Field(() => ID, { nullable: true, description: "Only this customer's." }) customerId?: string;
  @Field(() => ID, { nullable: true, description: 'Only of this gift.' }) offerId?: string;
}
