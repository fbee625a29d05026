import { Arg, Ctx, Field, ID, InputType, Mutation, ObjectType, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { Money, toMoney } from '../../kernel/money.ts';
import { parse } from '../../kernel/schemas.ts';
import { registrationPaymentIntent } from '../services/registration-payments.ts';
import { nextAction } from './order.resolver.ts';
import { PaymentNextActionNode, PaymentStatusEnum } from './order.types.ts';
import type { PaymentStatus } from '../entities/payment.ts';
import { PaymentChoice, RegistrationId } from './registration-payment.inputs.ts';

@ObjectType('RegistrationPaymentIntent', { description: 'The payment of an event registration; the registration is confirmed once it succeeds.' })
export class RegistrationPaymentIntentNode {
  @Field(() => ID, { description: 'The payment.' }) id!: string;
  @Field(() => ID, { description: 'The registration it pays.' }) registrationId!: string;
  @Field(() => PaymentStatusEnum) status!: PaymentStatus;
  @Field(() => Money) amount!: Money;
  @Field(() => String) paymentMethodId!: string;
  @Field(() => PaymentNextActionNode, { nullable: true, description: "Send the customer to the provider's page." }) nextAction?: PaymentNextActionNode | null;
  @Field(() => String, { nullable: true, description: 'Why the last attempt failed (e.g. card_declined).' }) failureCode?: string | null;
}

@InputType({ description: 'How to pay a registration.' })
export class RegistrationPaymentIntentInput {
  @Field(() => String, { nullable: true, description: 'A provider payment method id (GET /shop/payment-methods); default the first one.' })
  paymentMethodId?: string;
  @Field(() => String, { nullable: true, description: "Where the provider's payment page returns the customer." }) returnUrl?: string;
}

@Resolver(() => RegistrationPaymentIntentNode)
export class RegistrationPaymentResolver {
  @Requires('optionalCustomer', 'events')
  @Mutation(() => RegistrationPaymentIntentNode, { description: 'Starts (or resumes) the payment of a PENDING_PAYMENT event registration.' })
  async createRegistrationPaymentIntent(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID, { description: 'The registration.' }) id: string,
    @Arg('input', () => RegistrationPaymentIntentInput, { nullable: true, description: 'The payment method and where to return; both optional.' })
    input?: RegistrationPaymentIntentInput,
  ): Promise<RegistrationPaymentIntentNode> {
    const p = await registrationPaymentIntent(ctx, parse(RegistrationId, id, 'id'), parse(PaymentChoice, input ?? {}));
    return {
      id: p.id,
      registrationId: p.registrationId!,
      status: p.status,
      amount: toMoney(p.amountMinor, p.currency),
      paymentMethodId: p.paymentMethodId,
      nextAction: nextAction(p),
      failureCode: p.failureCode ?? null,
    };
  }
}
