/** GraphQL shapes of customer segments. */
import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime, Decimal } from '../../kernel/scalars.ts';
import { CampaignChannelEnum } from './campaign.types.ts';

@ObjectType('SegmentRules', { description: 'What a rule segment asks of a customer: every rule given must hold.' })
export class SegmentRulesNode {
  @Field(() => ID, { nullable: true, description: 'In this membership tier (loyalty).' }) tierId?: string | null;
  @Field(() => DateTime, { nullable: true, description: 'Has booked since then.' }) bookedSince?: Date | null;
  @Field(() => DateTime, { nullable: true, description: 'Has not booked since then (or never).' }) notBookedSince?: Date | null;
  @Field(() => Decimal, { nullable: true, description: 'Paid orders less refunds reach this amount (major units).' }) minTotalSpent?: string | null;
  @Field(() => Int, { nullable: true, description: 'Has at least this many paid orders.' }) minOrders?: number | null;
  @Field(() => String, { nullable: true, description: 'Carries this tag (tag_customers).' }) tag?: string | null;
  @Field(() => DateTime, { nullable: true, description: 'Became a customer since then.' }) createdSince?: Date | null;
  @Field(() => CampaignChannelEnum, { nullable: true, description: 'Has an address on this channel and has not unsubscribed from it or bounced.' })
  reachableBy?: string | null;
}

@ObjectType('CustomerSegment', { description: 'An audience for campaigns: a static list of customers, or rules evaluated when a campaign starts sending.' })
export class SegmentNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: '"static" (a list of customers) or "rules".' }) kind!: string;
  @Field(() => SegmentRulesNode, { nullable: true, description: 'The rules of a rule segment.' }) rules?: SegmentRulesNode | null;
  @Directive('@listSize(assumedSize: 20)')
  @Field(() => [ID], { nullable: true, description: 'The customers of a static segment.' })
  customerIds?: string[] | null;
  @Field(() => Int, { description: 'How many customers it holds now (a static list counts those still customers).' }) memberCount!: number;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const SegmentPage = PageOf(SegmentNode, 'CustomerSegmentPage');

@ObjectType('SegmentCustomer', { description: 'A customer of a segment, as campaigns knows them.' })
export class SegmentCustomerNode {
  @Field(() => ID) customerId!: string;
  @Field(() => String) firstName!: string;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
}

@ObjectType('SegmentPreview', { description: 'A segment as it is now: its size and its first 20 customers by name.' })
export class SegmentPreviewNode {
  @Field(() => SegmentNode) segment!: SegmentNode;
  @Field(() => Int) count!: number;
  @Directive('@listSize(assumedSize: 20)')
  @Field(() => [SegmentCustomerNode])
  customers!: SegmentCustomerNode[];
}

@InputType({ description: 'Rules of a segment; every rule given must hold.' })
export class SegmentRulesInput {
  @Field(() => ID, { nullable: true, description: 'In this membership tier (list_membership_tiers).' }) tierId?: string;
  @Field(() => DateTime, { nullable: true, description: 'Has booked since then (ISO-8601 with offset).' }) bookedSince?: Date;
  @Field(() => DateTime, { nullable: true, description: 'Has not booked since then, or never (ISO-8601 with offset).' }) notBookedSince?: Date;
  @Field(() => Decimal, { nullable: true, description: 'Paid orders less refunds reach this amount, in major units ("100.00").' }) minTotalSpent?: string;
  @Field(() => Int, { nullable: true, description: 'At least this many paid orders. Between 1 and 100000.' }) minOrders?: number;
  @Field(() => String, { nullable: true, description: 'Carries this tag (tag_customers), any case.' }) tag?: string;
  @Field(() => DateTime, { nullable: true, description: 'Became a customer since then (ISO-8601 with offset).' }) createdSince?: Date;
  @Field(() => CampaignChannelEnum, {
    nullable: true,
    description: 'Has an address on this channel (email, sms, whatsapp) and has not unsubscribed or bounced.',
  })
  reachableBy?: string;
}

@InputType({ description: 'A segment: a name and either customerIds or rules.' })
export class SegmentInput {
  @Field(() => String, { nullable: true, description: 'Name, unique in the company, at most 100 characters (required to create).' }) name?: string;
  @Field(() => [ID], { nullable: true, description: 'A static list of customer ids, 1 to 10000 (instead of rules).' }) customerIds?: string[];
  @Field(() => SegmentRulesInput, { nullable: true, description: 'Rules evaluated when a campaign starts sending (instead of customerIds).' })
  rules?: SegmentRulesInput;
}
