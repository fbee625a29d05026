/** GraphQL shapes of orders, their lines and payments, and the inputs that place them. */
import { Directive, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Money } from '../../kernel/money.ts';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { OrderChannel, OrderStatus } from '../entities/order.ts';
import type { PaymentStatus } from '../entities/payment.ts';

/** Order states (moves: services/states.ts). */
export const OrderStatusEnum = stateEnum<OrderStatus>('OrderStatus', 'Where an order stands.', {
  PENDING_PAYMENT: 'Placed, its stock reserved, waiting for payment (a provider payment expires after the payment window).',
  PAID: 'Paid: the stock is sold; next it is fulfilled.',
  FULFILLED: 'Handed over or shipped.',
  CANCELLED: 'Cancelled before payment; its stock was released. Final.',
  EXPIRED: 'Not paid within the payment window; its stock was released. Final.',
  REFUNDED: 'Paid and refunded in whole. Final.',
  PARTIALLY_REFUNDED: 'Paid and refunded in part; more can be refunded, and it can still be fulfilled.',
});

export const PaymentStatusEnum = stateEnum<PaymentStatus>('PaymentStatus', "Where a payment stands (Stripe's PaymentIntent states).", {
  requires_payment_method: 'Waiting for a payment method, or the last attempt failed (see failureCode); it can be paid again.',
  requires_confirmation: 'Waiting to be confirmed.',
  requires_action: 'The customer must act: send them to nextAction.redirectUrl.',
  processing: 'The provider is processing it.',
  requires_capture: 'Authorised, waiting to be captured.',
  canceled: 'Canceled; nothing was charged. Final.',
  succeeded: 'Paid. Final (refunds are counted in refunded).',
});

export const OrderChannelEnum = stateEnum<OrderChannel>('OrderChannel', 'Where an order was placed.', {
  online: 'By the customer on the storefront.',
  pos: 'By the business for a customer (point of sale).',
});

@ObjectType('ShippingAddress')
export class ShippingAddressNode {
  @Field(() => String) line1!: string;
  @Field(() => String, { nullable: true }) line2?: string | null;
  @Field(() => String) city!: string;
  @Field(() => String) postalCode!: string;
  @Field(() => String, { nullable: true }) region?: string | null;
  @Field(() => String, { description: 'ISO 3166-1 alpha-2.' }) country!: string;
}

@ObjectType('PaymentNextAction', { description: 'What the customer must do to finish a payment.' })
export class PaymentNextActionNode {
  @Field(() => String, { description: 'redirect_to_url' }) type!: string;
  @Field(() => String, { description: "The provider's page to send the customer to; it returns them to returnUrl." }) redirectUrl!: string;
}

@ObjectType('Payment', { description: 'A payment through a provider.' })
export class PaymentNode {
  @Field(() => ID) id!: string;
  @Field(() => PaymentStatusEnum) status!: PaymentStatus;
  @Field(() => String) provider!: string;
  @Field(() => String) paymentMethodId!: string;
  @Field(() => Money) amount!: Money;
  @Field(() => Money) refunded!: Money;
  @Field(() => PaymentNextActionNode, { nullable: true }) nextAction?: PaymentNextActionNode | null;
  @Field(() => String, { nullable: true, description: 'Why the last attempt failed (e.g. card_declined).' }) failureCode?: string | null;
  @Field(() => String, { nullable: true }) failureMessage?: string | null;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType('OrderLine', { description: 'A line of an order, at the price and tax rate of the moment it was placed.' })
export class OrderLineNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) productId!: string;
  @Field(() => ID) variantId!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) variantName?: string | null;
  @Field(() => String, { nullable: true }) sku?: string | null;
  @Field(() => Int) quantity!: number;
  @Field(() => Money) unitPrice!: Money;
  @Field(() => String, { description: 'Tax rate in percent ("19.000").' }) taxRate!: string;
  @Field(() => Money, { description: 'The tax in the line total (or on it, when prices exclude tax).' }) tax!: Money;
  @Field(() => Money) total!: Money;
}

@ObjectType('Order')
@Directive('@key(fields: "id")')
export class OrderNode {
  @Field(() => ID) id!: string;
  @Field(() => Int, { description: 'Order number, counting per shop from 1.' }) number!: number;
  @Field(() => OrderStatusEnum) status!: OrderStatus;
  @Field(() => OrderChannelEnum) channel!: OrderChannel;
  @Field(() => ID, { nullable: true, description: 'The customer account, when signed in (or named by the business).' }) customerId?: string | null;
  @Field(() => String) customerName!: string;
  @Field(() => String, { nullable: true }) customerEmail?: string | null;
  @Field(() => String, { nullable: true }) customerPhone?: string | null;
  @Field(() => ID, { nullable: true }) shippingMethodId?: string | null;
  @Field(() => ShippingAddressNode, { nullable: true }) shippingAddress?: ShippingAddressNode | null;
  @Field(() => String) paymentMethodId!: string;
  @Field(() => String, { nullable: true }) promotionCode?: string | null;
  @Field(() => Boolean, { description: 'Whether the line prices include tax (the shop setting when it was placed).' }) pricesIncludeTax!: boolean;
  @Field(() => String, { nullable: true, description: 'Only in the answer to the checkout, for a guest: give it as accessToken to read the payment status.' })
  accessToken?: string | null;
  @Field(() => DateTime, { nullable: true, description: 'An unpaid order expires then.' }) expiresAt?: Date | null;
  @Field(() => DateTime, { nullable: true }) paidAt?: Date | null;
  @Field(() => DateTime, { nullable: true }) fulfilledAt?: Date | null;
  @Field(() => DateTime, { nullable: true }) cancelledAt?: Date | null;
  @Field(() => String, { nullable: true }) cancelReason?: string | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const OrderPage = PageOf(OrderNode, 'OrderPage');

@ObjectType('OrderPaymentStatus', { description: 'Where an order and its payment stand.' })
export class OrderPaymentStatusNode {
  @Field(() => ID) orderId!: string;
  @Field(() => OrderStatusEnum) orderStatus!: OrderStatus;
  @Field(() => PaymentStatusEnum, { nullable: true, description: 'null when the order has no provider payment (free, or paid at the venue).' })
  paymentStatus?: PaymentStatus | null;
  @Field(() => Money, { description: 'The amount to pay (the order total).' }) amount!: Money;
  @Field(() => String) currency!: string;
  @Field(() => PaymentNextActionNode, { nullable: true }) nextAction?: PaymentNextActionNode | null;
  @Field(() => String, { nullable: true, description: 'Why the last payment attempt failed (e.g. card_declined).' }) failureCode?: string | null;
}

@InputType({ description: 'An order line: a product (its only variant) or a variant, and a quantity. Prices come from the catalog.' })
export class OrderItemInput {
  @Field(() => ID, { nullable: true, description: 'A product without options (its default variant is ordered); give variantId for a product with options.' })
  productId?: string;
  @Field(() => ID, { nullable: true, description: 'The variant to order.' }) variantId?: string;
  @Field(() => Int, { description: 'How many. Between 1 and 1000.' }) quantity!: number;
}

@InputType({ description: 'The guest who orders (required without a customer token).' })
export class OrderCustomerInput {
  @Field(() => String, { description: 'Name for the order.' }) name!: string;
  @Field(() => String, { nullable: true, description: 'Email for the order messages (an email or a phone is required).' }) email?: string;
  @Field(() => String, { nullable: true, description: 'Phone for the order messages.' }) phone?: string;
}

@InputType({ description: 'Where to ship.' })
export class ShippingAddressInput {
  @Field(() => String, { description: 'Street and number.' }) line1!: string;
  @Field(() => String, { nullable: true, description: 'Apartment, floor, c/o.' }) line2?: string;
  @Field(() => String, { description: 'City.' }) city!: string;
  @Field(() => String, { description: 'Postal code.' }) postalCode!: string;
  @Field(() => String, { nullable: true, description: 'State or region.' }) region?: string;
  @Field(() => String, { description: 'Two-letter country code (ISO 3166-1 alpha-2).' }) country!: string;
}

@InputType({ description: 'A checkout: the server prices everything from the catalog.' })
export class PlaceOrderInput {
  @Field(() => [OrderItemInput], { description: 'Order lines (1 to 50).' }) items!: OrderItemInput[];
  @Field(() => OrderCustomerInput, { nullable: true, description: 'Guest details; required without a customer token.' }) customer?: OrderCustomerInput;
  @Field(() => ID, { nullable: true, description: 'An active shipping method (GET /shop/shipping-methods).' }) shippingMethodId?: string;
  @Field(() => ShippingAddressInput, { nullable: true, description: 'Required when the shipping method needs an address.' })
  shippingAddress?: ShippingAddressInput;
  @Field(() => String, { nullable: true, description: 'A payment method id (GET /shop/payment-methods); default the first one.' }) paymentMethodId?: string;
  @Field(() => String, { nullable: true, description: "Where the provider's payment page returns the customer." }) returnUrl?: string;
  @Field(() => String, {
    nullable: true,
    description:
      'A promotion code (any case): its discount is computed by the server and shown on the order; one that does not apply is 400 PROMOTION_INVALID with details.errorCode.',
  })
  promotionCode?: string;
}
