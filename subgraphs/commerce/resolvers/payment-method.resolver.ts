import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { listPaymentMethods } from '../services/payment-methods.ts';
import { PaymentMethodNode, PaymentMethodPage } from './payment-method.types.ts';

@Resolver(() => PaymentMethodNode)
export class PaymentMethodResolver {
  @Requires('public', 'shop')
  @Query(() => PaymentMethodPage, { description: 'The active payment methods, in checkout order.' })
  shopPaymentMethods(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return listPaymentMethods(ctx, args);
  }

  @Requires('merchant', 'shop')
  @Query(() => PaymentMethodPage, { description: "The shop's payment methods: the sandbox provider (outside production) and pay at the venue." })
  paymentMethods(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return listPaymentMethods(ctx, args);
  }
}
