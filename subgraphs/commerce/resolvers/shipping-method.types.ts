/** GraphQL shapes of shipping methods. */
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money.ts';
import { PageOf } from '../../kernel/pagination.ts';
import { Decimal, DateTime } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { ShippingKind } from '../entities/shipping-method.ts';

export const ShippingKindEnum = stateEnum<ShippingKind>('ShippingKind', 'How a shipping method is priced.', {
  FLAT_RATE: 'The same price for every order.',
  FREE_ABOVE: 'The price, or nothing once the order subtotal reaches `freeAbove`.',
  LOCAL_PICKUP: 'Picked up at the business: no cost, no address.',
});

@ObjectType('ShippingMethod', { description: 'A way an order reaches its customer, and what it costs.' })
export class ShippingMethodNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => ShippingKindEnum) kind!: ShippingKind;
  @Field(() => Money, { description: 'What it costs (0 for LOCAL_PICKUP).' }) price!: Money;
  @Field(() => Money, { nullable: true, description: 'FREE_ABOVE: from this order subtotal on, shipping is free.' }) freeAbove?: Money | null;
  @Field(() => Boolean, { description: 'Whether checkout must give a shipping address.' }) needsAddress!: boolean;
  @Field(() => Boolean, { description: 'Offered at checkout.' }) active!: boolean;
  @Field(() => Int, { description: 'Order at checkout, lowest first. Between 0 and 10000.' }) position!: number;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const ShippingMethodPage = PageOf(ShippingMethodNode, 'ShippingMethodPage');

@InputType({ description: 'A new shipping method.' })
export class CreateShippingMethodInput {
  @Field(() => String, { description: 'Name shown at checkout, unique in the shop (e.g. "Standard delivery").' }) name!: string;
  @Field(() => ShippingKindEnum, { description: 'FLAT_RATE, FREE_ABOVE or LOCAL_PICKUP.' }) kind!: ShippingKind;
  @Field(() => Decimal, { nullable: true, description: 'Price in major units of the company currency ("4.90"); required unless LOCAL_PICKUP.' }) price?: string;
  @Field(() => Decimal, { nullable: true, description: 'FREE_ABOVE only: the order subtotal from which shipping is free ("50.00").' }) freeAbove?: string;
  @Field(() => Boolean, { nullable: true, description: 'Whether checkout asks for an address (default: yes, except LOCAL_PICKUP).' }) needsAddress?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Offered at checkout (default true).' }) active?: boolean;
  @Field(() => Int, { nullable: true, description: 'Order at checkout, lowest first (default 0). Between 0 and 10000.' }) position?: number;
}

@InputType({ description: 'Changes to a shipping method; absent fields stay as they are.' })
export class UpdateShippingMethodInput {
  @Field(() => String, { nullable: true, description: 'New name, unique in the shop.' }) name?: string;
  @Field(() => ShippingKindEnum, { nullable: true, description: 'FLAT_RATE, FREE_ABOVE or LOCAL_PICKUP.' }) kind?: ShippingKind;
  @Field(() => Decimal, { nullable: true, description: 'New price in major units ("4.90").' }) price?: string;
  @Field(() => Decimal, { nullable: true, description: 'FREE_ABOVE: the order subtotal from which shipping is free.' }) freeAbove?: string;
  @Field(() => Boolean, { nullable: true, description: 'Whether checkout asks for an address.' }) needsAddress?: boolean;
  @Field(() => Boolean, { nullable: true, description: 'false takes it off the checkout.' }) active?: boolean;
  @Field(() => Int, { nullable: true, description: 'Order at checkout, lowest first. Between 0 and 10000.' }) position?: number;
}
