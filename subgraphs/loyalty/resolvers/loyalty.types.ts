/** GraphQL shapes of loyalty: rules, tiers, a customer's standing and ledger, and the inputs. */
import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { LedgerSource, LedgerType } from '../entities/ledger-entry.ts';

export const LedgerEntryTypeEnum = stateEnum<LedgerType>('LedgerEntryType', 'What a points entry is.', {
  EARN: 'Earned from a paid order or a completed booking (counts toward the tier).',
  REDEEM: 'Spent on a gift.',
  EXPIRE: 'Earned points that reached their expiry date.',
  ADJUST: 'A correction by the business (adjust_points), up or down.',
  REVERSAL: 'Taken back because an order was refunded.',
});

export const LedgerSourceEnum = stateEnum<LedgerSource>('LedgerSource', 'What caused a points entry.', {
  order: 'A shop order (sourceId is the order id).',
  booking: 'A booking (sourceId is the booking id).',
  redemption: 'A gift redemption.',
  merchant: 'The business, by hand.',
  expiry: 'The expiry of a lot (sourceId is the entry that earned it).',
});

@ObjectType('LoyaltyRules', { description: "How the company's customers earn points." })
export class LoyaltyRulesNode {
  @Field(() => String, { description: 'Points per major currency unit of a paid order ("1.00": a point per euro), rounded down.' })
  pointsPerCurrencyUnit!: string;
  @Field(() => Int, { description: 'Points for each completed booking.' }) pointsPerBooking!: number;
  @Field(() => String, { description: "Points per major currency unit of a completed booking's amount due." }) bookingPointsPerCurrencyUnit!: string;
  @Field(() => Int, { nullable: true, description: 'Days earned points last; null: they never expire.' }) expiryDays?: number | null;
}

@ObjectType('MembershipTier', { description: 'A membership level, reached by lifetime points earned.' })
export class MembershipTierNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => Int, { description: 'Lifetime points needed.' }) threshold!: number;
  @Field(() => [String], { description: 'What members of the tier get, one line each.' }) benefits!: string[];
  @Field(() => Int, { description: 'Display order, lowest first.' }) sortOrder!: number;
  @Field(() => String, { nullable: true, description: 'Display colour, "#RRGGBB".' }) color?: string | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const MembershipTierPage = PageOf(MembershipTierNode, 'MembershipTierPage');

@ObjectType('LedgerEntry', { description: "One change of a customer's points." })
export class LedgerEntryNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) customerId!: string;
  @Field(() => LedgerEntryTypeEnum) type!: LedgerType;
  @Field(() => Int, { description: 'Signed: positive added, negative taken.' }) points!: number;
  @Field(() => Int, { description: 'The balance after this entry.' }) balanceAfter!: number;
  @Field(() => String) reason!: string;
  @Field(() => LedgerSourceEnum) sourceType!: LedgerSource;
  @Field(() => String, { nullable: true }) sourceId?: string | null;
  @Field(() => Int, { nullable: true, description: 'Credits: points of this entry not yet spent or expired.' }) remaining?: number | null;
  @Field(() => DateTime, { nullable: true, description: 'Credits: when the points left expire (null: never).' }) expiresAt?: Date | null;
  @Field(() => DateTime) createdAt!: Date;
}

export const LedgerEntryPage = PageOf(LedgerEntryNode, 'LedgerEntryPage');

@ObjectType('Loyalty', { description: "A customer's points and tier." })
export class LoyaltyNode {
  @Field(() => Int, { description: 'Points that can be spent now.' }) balance!: number;
  @Field(() => Int, { description: 'Every point ever earned (the tier comes from this, never from the balance).' }) lifetimeEarned!: number;
  @Field(() => MembershipTierNode, { nullable: true, description: 'The highest tier reached; null below the first.' }) tier?: MembershipTierNode | null;
  @Field(() => Int, { description: 'Points that expire within 30 days.' }) expiringSoon!: number;
  @Field(() => DateTime, { nullable: true, description: 'When the next points expire.' }) nextExpiry?: Date | null;
}

@ObjectType('CustomerLoyalty', { description: "A customer's standing and a page of their ledger (merchant)." })
export class CustomerLoyaltyNode extends LoyaltyNode {
  @Field(() => ID) customerId!: string;
  @Field(() => LedgerEntryPage, { description: 'Their points entries, newest first.' }) ledger!: InstanceType<typeof LedgerEntryPage>;
}

/** members' Customer, extended here with the customer's points. */
@ObjectType('Customer')
@Directive('@key(fields: "id")')
export class CustomerRef {
  @Field(() => ID) id!: string;
}

@InputType({ description: 'Changes to the earn rules; fields left out keep their value.' })
export class LoyaltyRulesInput {
  @Field(() => String, { nullable: true, description: 'Points per major currency unit of a paid order, 0 to 999999.99 ("1", "0.5").' })
  pointsPerCurrencyUnit?: string;
  @Field(() => Int, { nullable: true, description: 'Points for each completed booking. Between 0 and 1000000.' }) pointsPerBooking?: number;
  @Field(() => String, { nullable: true, description: "Points per major currency unit of a completed booking's amount due, 0 to 999999.99." })
  bookingPointsPerCurrencyUnit?: string;
  @Field(() => Int, { nullable: true, description: 'Days earned points last (default 365); 0: they never expire. Between 0 and 3650.' }) expiryDays?: number;
}

@InputType({ description: 'A membership tier.' })
export class MembershipTierInput {
  @Field(() => String, { nullable: true, description: 'Name, unique in the company (e.g. "Gold"). Required when creating.' }) name?: string;
  @Field(() => Int, { nullable: true, description: 'Lifetime points needed, unique in the company. Required when creating. Between 0 and 100000000.' })
  threshold?: number;
  @Field(() => [String], { nullable: true, description: 'What members get, one line each, at most 20.' }) benefits?: string[];
  @Field(() => Int, { nullable: true, description: 'Display order, lowest first (default: the threshold). Between 0 and 10000.' }) sortOrder?: number;
  @Field(() => String, { nullable: true, description: 'Display colour, "#RRGGBB"; null clears it.' }) color?: string;
}
