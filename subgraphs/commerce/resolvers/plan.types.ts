/** GraphQL shape of the company's plan, its usage and a plan checkout. */
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money.ts';
import { DateTime } from '../../kernel/scalars.ts';
import type { PaymentStatus } from '../entities/payment.ts';
import { PaymentStatusEnum } from './order.types.ts';

@ObjectType('PlanLimits', { description: 'What a plan allows. A limit reached answers 402 PLAN_LIMIT_REACHED naming it.' })
export class PlanLimitsNode {
  @Field(() => Int, { description: 'Merchant and agent operations per minute, per API key or dashboard session (429 RATE_LIMITED beyond).' })
  requestsPerMinute!: number;
  @Field(() => Int, { description: 'Merchant and agent operations per period, for the whole company.' }) apiCallsPerMonth!: number;
  @Field(() => Int, { description: 'Campaign email messages per period.' }) emailMessagesPerMonth!: number;
  @Field(() => Int, { description: 'Campaign SMS messages per period (the sms feature).' }) smsMessagesPerMonth!: number;
  @Field(() => Int, { description: 'Campaign WhatsApp messages per period (the whatsapp feature).' }) whatsappMessagesPerMonth!: number;
  @Field(() => Int, { description: 'Active staff members at any time.' }) staffMembers!: number;
}

@ObjectType('Plan', { description: 'A plan a company can be on.' })
export class PlanNode {
  @Field(() => ID, { description: 'free, starter, or a plan the operator added.' }) id!: string;
  @Field(() => String) name!: string;
  @Field(() => Money, { description: 'The price of a period (a month).' }) price!: Money;
  @Field(() => [String], { description: 'What it includes besides its limits: sms, whatsapp, approvals, reports.' }) features!: string[];
  @Field(() => PlanLimitsNode) limits!: PlanLimitsNode;
}

@ObjectType('MeterUsage', { description: 'What the company used of a meter this period, against its plan’s limit.' })
export class MeterUsageNode {
  @Field(() => String, { description: 'apiCalls, emailMessages, smsMessages or whatsappMessages.' }) meter!: string;
  @Field(() => Int) used!: number;
  @Field(() => Int, { description: 'The plan’s limit for the period.' }) limit!: number;
  @Field(() => Int, { description: 'What is left this period.' }) remaining!: number;
}

@ObjectType('ScheduledPlanChange', { description: 'A move to another plan chosen for the end of the paid time.' })
export class ScheduledPlanChangeNode {
  @Field(() => PlanNode) plan!: PlanNode;
  @Field(() => DateTime) at!: Date;
}

@ObjectType('PlanAndUsage', { description: 'The company’s plan, its limits, what it used this period and when the period ends.' })
export class PlanAndUsageNode {
  @Field(() => PlanNode) plan!: PlanNode;
  @Field(() => DateTime, { description: 'When this period began: usage counts from here.' }) periodStart!: Date;
  @Field(() => DateTime, { description: 'When this period ends and usage starts again from zero.' }) periodEnd!: Date;
  @Field(() => DateTime, {
    nullable: true,
    description: 'Until when a paid plan is paid; afterwards the company is on the free plan unless it buys another month.',
  })
  paidUntil?: Date | null;
  @Field(() => ScheduledPlanChangeNode, { nullable: true }) scheduledChange?: ScheduledPlanChangeNode | null;
  @Field(() => [MeterUsageNode]) usage!: MeterUsageNode[];
  @Field(() => [PlanNode], { description: 'Every plan, in upgrade order.' }) plans!: PlanNode[];
}

@ObjectType('PlanCheckout', { description: 'The payment of a month of a plan; the plan starts when it succeeds.' })
export class PlanCheckoutNode {
  @Field(() => ID, { description: 'The payment.' }) id!: string;
  @Field(() => PaymentStatusEnum, { description: 'succeeded once paid (the plan is then active).' }) status!: PaymentStatus;
  @Field(() => PlanNode) plan!: PlanNode;
  @Field(() => Money) amount!: Money;
  @Field(() => String, { nullable: true, description: 'The provider’s page where the merchant pays; it returns them to returnUrl.' })
  checkoutUrl?: string | null;
  @Field(() => String, { nullable: true, description: 'Why the last attempt failed (e.g. card_declined).' }) failureCode?: string | null;
}

@InputType({ description: 'A month of a paid plan.' })
export class PlanCheckoutInput {
  @Field(() => String, { description: 'The plan to buy (starter).' }) plan!: string;
  @Field(() => String, { nullable: true, description: 'A provider payment method id (GET /shop/payment-methods); default the first one.' })
  paymentMethodId?: string;
  @Field(() => String, { nullable: true, description: "Where the provider's payment page returns the merchant." }) returnUrl?: string;
}
