/** GraphQL shapes of promotions and of a code's validation. */
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money.ts';
import { PageArgs, PageOf } from '../../kernel/pagination.ts';
import { DateTime, Decimal } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { PromotionChannel, PromotionType } from '../entities/promotion.ts';
import type { PromotionErrorCode } from '../services/promotions.ts';

export const PromotionTypeEnum = stateEnum<PromotionType>('PromotionType', 'What a promotion takes off.', {
  percentage: 'A percentage of the amount (value 1 to 100).',
  fixed: 'A fixed amount in the company currency (value, e.g. "5.00"), never more than the amount.',
  free_shipping: 'The shipping line costs nothing (shop orders).',
});

export const PromotionChannelEnum = stateEnum<PromotionChannel>('PromotionChannel', 'Where a code is used.', {
  booking: 'Bookings of services.',
  online: 'Shop orders from the storefront.',
  pos: 'Orders the business places for a customer (create_shop_order).',
});

export const PromotionErrorCodeEnum = stateEnum<PromotionErrorCode>('PromotionErrorCode', 'Why a code does not apply (checked in this order).', {
  PROMOTION_NOT_FOUND: 'No promotion has this code in the company.',
  INACTIVE: 'The promotion was deactivated.',
  NOT_STARTED: 'Before startsAt.',
  EXPIRED: 'At or after endsAt.',
  CHANNEL_NOT_ENABLED: 'Not enabled for this channel.',
  MINIMUM_NOT_MET: 'The amount is below minimumAmount.',
  USAGE_LIMIT_REACHED: 'Every use of usageLimit is taken.',
  CUSTOMER_LIMIT_REACHED: 'This customer has used it perCustomerLimit times (orders only: validation knows no customer).',
});

@ObjectType('Promotion', { description: 'A promotion code and how it has been used.' })
export class PromotionNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'The code customers enter, upper-case (entered in any case).' }) code!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => PromotionTypeEnum) type!: PromotionType;
  @Field(() => String, {
    nullable: true,
    description: 'percentage: the percent off ("15.00"); fixed: the amount off in major units ("5.00"); null for free_shipping.',
  })
  value?: string | null;
  @Field(() => Boolean) bookingEnabled!: boolean;
  @Field(() => Boolean) onlineEnabled!: boolean;
  @Field(() => Boolean) posEnabled!: boolean;
  @Field(() => DateTime, { nullable: true, description: 'Valid from then (null: at once).' }) startsAt?: Date | null;
  @Field(() => DateTime, { nullable: true, description: 'Valid until then, exclusive (null: no end).' }) endsAt?: Date | null;
  @Field(() => Int, { nullable: true, description: 'Uses in all (null: unlimited).' }) usageLimit?: number | null;
  @Field(() => Int, { nullable: true, description: 'Uses per customer (null: unlimited).' }) perCustomerLimit?: number | null;
  @Field(() => Money, { nullable: true, description: 'The smallest amount it applies to.' }) minimumAmount?: Money | null;
  @Field(() => Int, { description: 'Uses taken by orders and bookings (a cancelled or expired one gives its use back).' }) usedCount!: number;
  @Field(() => Int, { nullable: true, description: 'Uses left (null: unlimited).' }) remainingUses?: number | null;
  @Field(() => Boolean, { description: 'Whether it can be used (deactivate_promotion turns it off).' }) active!: boolean;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const PromotionPage = PageOf(PromotionNode, 'PromotionPage');

@ObjectType('PromotionValidation', { description: 'Whether a code applies to an amount on a channel; an invalid code is a normal answer.' })
export class PromotionValidationNode {
  @Field(() => Boolean) isValid!: boolean;
  @Field(() => Money, {
    description: 'What it takes off the amount, never more than it (0 when invalid, and for free_shipping, which takes off the shipping instead).',
  })
  discountAmount!: Money;
  @Field(() => PromotionErrorCodeEnum, { nullable: true, description: 'Why it does not apply; null when valid.' }) errorCode?: PromotionErrorCode | null;
  @Field(() => PromotionNode, { nullable: true, description: 'The promotion of the code, when it exists.' }) promotion?: PromotionNode | null;
}

@InputType({ description: 'A new promotion.' })
export class CreatePromotionInput {
  @Field(() => String, { description: 'Name for the business, e.g. "Summer sale".' }) name!: string;
  @Field(() => String, { description: 'The code customers enter: 2 to 40 letters, digits, - or _; stored upper-case, unique in the company.' }) code!: string;
  @Field(() => PromotionTypeEnum, { description: 'percentage, fixed or free_shipping.' }) type!: PromotionType;
  @Field(() => String, {
    description: 'percentage: percent off, 1 to 100 ("15"); fixed: amount off in major units of the company currency ("5.00"); free_shipping: ignored ("0").',
  })
  value!: string;
  @Field(() => Boolean, { description: 'Usable for bookings.' }) bookingEnabled!: boolean;
  @Field(() => Boolean, { description: 'Usable for storefront shop orders.' }) onlineEnabled!: boolean;
  @Field(() => Boolean, { description: 'Usable for orders the business places (create_shop_order).' }) posEnabled!: boolean;
  @Field(() => DateTime, { nullable: true, description: 'Valid from (ISO-8601 with offset); default at once.' }) startsAt?: Date;
  @Field(() => DateTime, { nullable: true, description: 'Valid until, exclusive (ISO-8601 with offset); after startsAt.' }) endsAt?: Date;
  @Field(() => Int, { nullable: true, description: 'Uses in all. Between 1 and 1000000; default unlimited.' }) usageLimit?: number;
  @Field(() => Int, { nullable: true, description: 'Uses per customer (by account, or by guest email or phone). Between 1 and 1000000; default unlimited.' })
  perCustomerLimit?: number;
  @Field(() => Decimal, { nullable: true, description: 'The smallest amount (major units) it applies to.' }) minimumAmount?: string;
  @Field(() => String, { nullable: true, description: 'Notes for the business, at most 2000 characters.' }) description?: string;
}

@InputType({ description: 'Changes to a promotion; absent fields stay as they are (null clears an optional one).' })
export class UpdatePromotionInput {
  @Field(() => String, { nullable: true, description: 'New name.' }) name?: string;
  @Field(() => String, { nullable: true, description: 'New code (unique in the company, stored upper-case).' }) code?: string;
  @Field(() => PromotionTypeEnum, { nullable: true, description: 'New type (give value with it unless free_shipping).' }) type?: PromotionType;
  @Field(() => String, { nullable: true, description: 'New value: percent ("15") or amount ("5.00").' }) value?: string;
  @Field(() => Boolean, { nullable: true, description: 'Usable for bookings.' }) bookingEnabled?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Usable for storefront shop orders.' }) onlineEnabled?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Usable for orders the business places.' }) posEnabled?: boolean;
  @Field(() => DateTime, { nullable: true, description: 'Valid from; null: at once.' }) startsAt?: Date;
  @Field(() => DateTime, { nullable: true, description: 'Valid until, exclusive; null: no end.' }) endsAt?: Date;
  @Field(() => Int, { nullable: true, description: 'Uses in all, at least the uses taken. Between 1 and 1000000; null: unlimited.' }) usageLimit?: number;
  @Field(() => Int, { nullable: true, description: 'Uses per customer. Between 1 and 1000000; null: unlimited.' }) perCustomerLimit?: number;
  @Field(() => Decimal, { nullable: true, description: 'The smallest amount it applies to; null: none.' }) minimumAmount?: string;
  @Field(() => String, { nullable: true, description: 'Notes for the business.' }) description?: string;
  @Field(() => Boolean, { nullable: true, description: 'true makes a deactivated promotion usable again.' }) active?: boolean;
}

@ArgsType()
export class PromotionListArgs extends PageArgs {
  @Field(() => Boolean, { nullable: true, description: 'Only active (true) or deactivated (false) promotions.' }) active?: boolean;
}
