import { Ctx, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { paymentMethods } from '../services/payment-methods.ts';
import { PaymentMethodNode } from './payment-method.types.ts';

@Resolver(() => PaymentMethodNode)
export class PaymentMethodResolver {
  @Requires('public')
  @Query(() => [PaymentMethodNode], { description: 'The active payment methods, in checkout order.' })
  shopPaymentMethods(@Ctx() ctx: RequestContext) {
    return paymentMethods(ctx);
  }

  @Requires('merchant')
  @Query(() => [PaymentMethodNode], { description: "The shop's payment methods: the sandbox provider (outside production) and pay at the venue." })
  paymentMethods(@Ctx() ctx: RequestContext) {
    return paymentMethods(ctx);
  }
}
