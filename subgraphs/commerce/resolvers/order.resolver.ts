import { Arg, Args, Ctx, Directive, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { inCallerWords } from '../../kernel/errors.ts';
import { Money, toMoney } from '../../kernel/money.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { Decimal, DateTime } from '../../kernel/scalars.ts';
import type { OrderStatus } from '../entities/order.ts';
import { parse } from '../../kernel/schemas.ts';
import type { RowOf } from '../../kernel/tables.ts';
import * as orders from '../services/orders.ts';
import { paymentIntentOf } from '../services/payments.ts';
import { AccountId, CancelReason, Checkout, OrderFilter, OrderId, PosOrder, RefundAmount } from './order.inputs.ts';
import {
  OrderItemInput,
  OrderLineNode,
  OrderNode,
  OrderPage,
  OrderPaymentStatusNode,
  OrderStatusEnum,
  PaymentNode,
  PlaceOrderInput,
  ShippingAddressInput,
} from './order.types.ts';

type OrderRoot = orders.OrderRow & { accessToken?: string | null };

const placed = ({ order, accessToken }: orders.PlacedOrder): OrderRoot => ({ ...order, accessToken });

export const nextAction = (p: Pick<RowOf<'commerce.payment'>, 'status' | 'nextActionUrl'> | null) =>
  p?.status === 'requires_action' && p.nextActionUrl ? { type: 'redirect_to_url', redirectUrl: p.nextActionUrl } : null;

export const paymentNode = (p: RowOf<'commerce.payment'>): PaymentNode => ({
  id: p.id,
  status: p.status,
  provider: p.provider,
  paymentMethodId: p.paymentMethodId,
  amount: toMoney(p.amountMinor, p.currency),
  refunded: toMoney(p.refundedMinor, p.currency),
  nextAction: nextAction(p),
  failureCode: p.failureCode,
  failureMessage: p.failureMessage,
  createdAt: p.createdAt,
});

/** The merchant tool names the customer accountId; the service calls the lines items too. */
const POS = { customerId: 'accountId' };

@Resolver(() => OrderNode)
export class OrderResolver {
  @Requires('optionalCustomer', 'orders')
  @Mutation(() => OrderNode, {
    description: 'Checkout: places an order priced by the server, reserves its stock and opens its payment (see payment.nextAction).',
  })
  async placeOrder(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => PlaceOrderInput, { description: 'What to order, for whom, how it is shipped and paid.' }) input: PlaceOrderInput,
  ) {
    return placed(await orders.placeOrder(ctx, parse(Checkout, input)));
  }

  @Requires('customer', 'orders')
  @Query(() => OrderPage, { description: "The signed-in customer's orders, newest first." })
  async myOrders(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return orders.listMyOrders(ctx, args);
  }

  @Requires('optionalCustomer', 'orders')
  @Query(() => OrderPaymentStatusNode, { description: "An order's payment status: for the signed-in customer's own order, or with the order's access token." })
  async orderPaymentStatus(
    @Ctx() ctx: RequestContext,
    @Arg('orderId', () => ID, { description: 'The order.' }) orderId: string,
    @Arg('accessToken', () => String, { nullable: true, description: 'The access token the checkout returned (guests).' }) accessToken?: string,
  ): Promise<OrderPaymentStatusNode> {
    const { order, payment } = await orders.paymentStatus(ctx, parse(OrderId, orderId, 'orderId'), accessToken);
    return {
      orderId: order.id,
      orderStatus: order.status,
      paymentStatus: payment?.status ?? null,
      amount: toMoney(order.totalMinor, order.currency),
      currency: order.currency,
      nextAction: nextAction(payment),
      failureCode: payment?.failureCode ?? null,
    };
  }

  @Requires('merchant', 'orders')
  @Query(() => OrderPage, { description: 'Orders, newest first: by status, customer and creation time.' })
  async orders(
    @Ctx() ctx: RequestContext,
    @Arg('status', () => OrderStatusEnum, { nullable: true, description: 'Only orders in this state.' }) status?: OrderStatus,
    @Arg('customerId', () => ID, { nullable: true, description: "Only this customer's orders." }) customerId?: string,
    @Arg('from', () => DateTime, { nullable: true, description: 'Placed at or after this time.' }) from?: Date,
    @Arg('to', () => DateTime, { nullable: true, description: 'Placed before this time.' }) to?: Date,
    @Arg('limit', () => Int, { nullable: true, description: 'How many (default 20). Between 1 and 100.' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: 'Skip this many (default 0). At least 0.' }) offset?: number,
  ) {
    return orders.listOrders(ctx, parse(OrderFilter, { status, customerId, from, to, limit, offset }));
  }

  @Requires('merchant', 'orders')
  @Query(() => OrderNode, { description: 'One order with its lines and payment.' })
  async order(@Ctx() ctx: RequestContext, @Arg('orderId', () => ID, { description: 'The order.' }) orderId: string) {
    return orders.findOrder(ctx, parse(OrderId, orderId, 'orderId'));
  }

  @Requires('merchant', 'orders')
  @Mutation(() => OrderNode, {
    description: 'Places an order for a customer of the business (channel pos), paid at the venue unless a payment method is given.',
  })
  async createShopOrder(
    @Ctx() ctx: RequestContext,
    @Arg('accountId', () => ID, { description: 'The customer (a customer id of this company).' }) accountId: string,
    @Arg('items', () => [OrderItemInput], { description: 'Order lines: productId or variantId, and quantity.' }) items: OrderItemInput[],
    @Arg('promotionCode', () => String, {
      nullable: true,
      description:
        'A promotion code (any case): its discount is computed by the server and shown on the order; one that does not apply is 400 PROMOTION_INVALID with details.errorCode.',
    })
    promotionCode?: string,
    @Arg('shippingMethodId', () => ID, { nullable: true, description: 'A shipping method; none for an order handed over at once.' }) shippingMethodId?: string,
    @Arg('shippingAddress', () => ShippingAddressInput, { nullable: true, description: 'Required when the shipping method needs an address.' })
    shippingAddress?: ShippingAddressInput,
    @Arg('paymentMethodId', () => String, { nullable: true, description: 'Payment method id (default manual: the business marks it paid).' })
    paymentMethodId?: string,
  ) {
    return placed(
      await inCallerWords(
        () =>
          orders.placePosOrder(
            ctx,
            parse(AccountId, accountId, 'accountId'),
            parse(PosOrder, { items, promotionCode, shippingMethodId, shippingAddress, paymentMethodId }),
          ),
        POS,
      ),
    );
  }

  @Requires('merchant', 'orders')
  @Mutation(() => OrderNode, { description: 'Records that an unpaid order was paid in person (PENDING_PAYMENT → PAID).' })
  async markOrderPaid(@Ctx() ctx: RequestContext, @Arg('orderId', () => ID, { description: 'The order.' }) orderId: string) {
    return orders.markOrderPaid(ctx, parse(OrderId, orderId, 'orderId'));
  }

  @Requires('merchant', 'orders')
  @Mutation(() => OrderNode, { description: 'Records that a paid order was handed over or shipped (→ FULFILLED).' })
  async fulfilOrder(@Ctx() ctx: RequestContext, @Arg('orderId', () => ID, { description: 'The order.' }) orderId: string) {
    return orders.fulfilOrder(ctx, parse(OrderId, orderId, 'orderId'));
  }

  @Requires('merchant', 'orders')
  @Mutation(() => OrderNode, { description: 'Cancels an unpaid order and releases its stock (a paid order is refunded instead).' })
  async cancelOrder(
    @Ctx() ctx: RequestContext,
    @Arg('orderId', () => ID, { description: 'The order.' }) orderId: string,
    @Arg('reason', () => String, { nullable: true, description: 'Why, for the record.' }) reason?: string,
  ) {
    return orders.cancelOrder(ctx, parse(OrderId, orderId, 'orderId'), parse(CancelReason, reason, 'reason'));
  }

  @Requires('merchant', 'orders')
  @Mutation(() => OrderNode, { description: 'Refunds a paid order through its payment provider, in whole or in part.' })
  async refundOrder(
    @Ctx() ctx: RequestContext,
    @Arg('orderId', () => ID, { description: 'The order.' }) orderId: string,
    @Arg('amount', () => Decimal, { nullable: true, description: 'Amount in major units ("10.00"); the whole rest when absent.' }) amount?: string,
  ) {
    return orders.refundOrder(ctx, parse(OrderId, orderId, 'orderId'), parse(RefundAmount, amount, 'amount'));
  }

  // Cost analysis (router/limits.ts): a shop order holds a few lines; an order page is a page of them.
  @Directive('@listSize(assumedSize: 5)')
  @FieldResolver(() => [OrderLineNode], { description: 'What was bought, in the order it was given.' })
  async lines(@Ctx() ctx: RequestContext, @Root() order: OrderRoot): Promise<OrderLineNode[]> {
    const lines = await orders.linesOf(ctx, order.id);
    return lines.map((l) => ({
      ...l,
      unitPrice: toMoney(l.unitPriceMinor, order.currency),
      tax: toMoney(l.taxMinor, order.currency),
      total: toMoney(l.totalMinor, order.currency),
    }));
  }

  @FieldResolver(() => PaymentNode, { nullable: true, description: 'The latest payment (null when free or paid at the venue).' })
  async payment(@Ctx() ctx: RequestContext, @Root() order: OrderRoot) {
    const payment = await paymentIntentOf(ctx, order.id);
    return payment && paymentNode(payment);
  }

  @FieldResolver(() => Money, { description: 'Sum of the line totals.' })
  subtotal(@Root() o: OrderRoot) {
    return toMoney(o.subtotalMinor, o.currency);
  }

  @FieldResolver(() => Money, { description: 'Shipping cost.' })
  shipping(@Root() o: OrderRoot) {
    return toMoney(o.shippingMinor, o.currency);
  }

  @FieldResolver(() => Money, { description: 'Tax: included in the subtotal when pricesIncludeTax, added to the total otherwise.' })
  tax(@Root() o: OrderRoot) {
    return toMoney(o.taxMinor, o.currency);
  }

  @FieldResolver(() => Money, { description: 'Discount from a promotion.' })
  discount(@Root() o: OrderRoot) {
    return toMoney(o.discountMinor, o.currency);
  }

  @FieldResolver(() => Money, { description: 'What the customer pays.' })
  total(@Root() o: OrderRoot) {
    return toMoney(o.totalMinor, o.currency);
  }

  @FieldResolver(() => Money, { description: 'Refunded so far.' })
  refunded(@Root() o: OrderRoot) {
    return toMoney(o.refundedMinor, o.currency);
  }
}
