import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { toMoney } from '../../kernel/money.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import type { ShippingMethod } from '../entities/shipping-method.ts';
import * as shipping from '../services/shipping-methods.ts';
import { NewShippingMethod, ShippingMethodId, ShippingMethodUpdate } from './shipping-method.inputs.ts';
import { CreateShippingMethodInput, ShippingMethodNode, ShippingMethodPage, UpdateShippingMethodInput } from './shipping-method.types.ts';

export const shippingMethodNode = (m: ShippingMethod): ShippingMethodNode => ({
  id: m.id,
  name: m.name,
  kind: m.kind,
  price: toMoney(m.priceMinor, m.currency),
  freeAbove: m.freeAboveMinor == null ? null : toMoney(m.freeAboveMinor, m.currency),
  needsAddress: m.needsAddress,
  active: m.active,
  position: m.position,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

@Resolver(() => ShippingMethodNode)
export class ShippingMethodResolver {
  @Requires('public', 'shop')
  @Query(() => ShippingMethodPage, { description: 'The active shipping methods, in checkout order.' })
  async shopShippingMethods(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await shipping.listShippingMethods(ctx, true, args);
    return { ...page, items: page.items.map(shippingMethodNode) };
  }

  @Requires('merchant', 'shop')
  @Query(() => ShippingMethodPage, { description: "The shop's shipping methods, inactive ones included, in checkout order." })
  async shippingMethods(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await shipping.listShippingMethods(ctx, false, args);
    return { ...page, items: page.items.map(shippingMethodNode) };
  }

  @Requires('merchant', 'shop')
  @Mutation(() => ShippingMethodNode, { description: 'Adds a shipping method: flat rate, free above an order amount, or local pickup.' })
  async createShippingMethod(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CreateShippingMethodInput, { description: 'The shipping method to create.' }) input: CreateShippingMethodInput,
  ) {
    return shippingMethodNode(await shipping.createShippingMethod(ctx, parse(NewShippingMethod, input)));
  }

  @Requires('merchant', 'shop')
  @Mutation(() => ShippingMethodNode, { description: 'Changes a shipping method (active: false takes it off the checkout).' })
  async updateShippingMethod(
    @Ctx() ctx: RequestContext,
    @Arg('shippingMethodId', () => ID, { description: 'The shipping method to change.' }) shippingMethodId: string,
    @Arg('input', () => UpdateShippingMethodInput, { description: 'The fields to change; fields left out keep their value.' }) input: UpdateShippingMethodInput,
  ) {
    return shippingMethodNode(
      await shipping.updateShippingMethod(ctx, parse(ShippingMethodId, shippingMethodId, 'shippingMethodId'), parse(ShippingMethodUpdate, input)),
    );
  }
}
