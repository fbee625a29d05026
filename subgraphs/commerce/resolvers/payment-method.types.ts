/** GraphQL shape of a payment method. */
import { Field, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { PaymentMethodKind } from '../services/payment-methods.ts';

export const PaymentMethodKindEnum = stateEnum<PaymentMethodKind>('PaymentMethodKind', 'How a payment method collects the money.', {
  PROVIDER: 'Through a payment provider (the sandbox, or a real one): the customer may be sent to its page.',
  MANUAL: 'Paid in person (at the venue); the business marks the order paid.',
});

@ObjectType('PaymentMethod', { description: 'A way to pay at checkout.' })
export class PaymentMethodNode {
  @Field(() => String, { description: 'Give it as paymentMethodId at checkout (sandbox, sandbox_success, sandbox_decline, sandbox_requires_action, manual).' })
  id!: string;
  @Field(() => String) name!: string;
  @Field(() => PaymentMethodKindEnum) kind!: PaymentMethodKind;
  @Field(() => String, { nullable: true, description: 'The provider that collects it (null for manual payment).' }) provider?: string | null;
  @Field(() => String) description!: string;
  @Field(() => Boolean, { description: 'A test method: no real money moves.' }) test!: boolean;
}

export const PaymentMethodPage = PageOf(PaymentMethodNode, 'PaymentMethodPage');
