import { createHash, randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import { perKey } from '../../kernel/batches.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { AppError, badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { parseAmount, toMoney } from '../../kernel/money.ts';
import { pageRequest } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { Order, OrderLine, type OrderChannel, type OrderStatus, type ShippingAddress } from '../entities/order.ts';
import { Payment } from '../entities/payment.ts';
import { resolveItems, type OrderItem } from './catalog-lines.ts';
import { customers } from './customers.ts';
import { notifyOrder } from './notify.ts';
import { markPaidInTx, publishPaid } from './order-paid.ts';
import { choosePaymentMethod, type PaymentMethodInfo } from './payment-methods.ts';
import { cancelOpenPayments, openProviderPayment, paymentIntentOf, refundPayments, syncPayment } from './payments.ts';
import { lineMoney, orderMoney } from './pricing.ts';
import { releasePromotion, takePromotion } from './promotions.ts';
import { shopSettings } from './settings.ts';
import { shippingCost } from './shipping-methods.ts';
import { orderStates } from './states.ts';
import { releaseStock, reserveStock } from './stock.ts';

export type OrderRow = RowOf<'commerce.shop_order'>;

/** The queue of the job that expires an unpaid order at the end of its payment window. */
export const EXPIRE_ORDERS_QUEUE = 'commerce.expire-orders';

/** A checkout as the edge checked it (resolvers/order.inputs.ts): 1 to 50 items, the promotion code upper-cased. */
export interface CheckoutInput {
  items: OrderItem[];
  customer?: GuestDetails | null;
  shippingMethodId?: string | null;
  /** Kept when the shipping method needs an address (and required then). */
  shippingAddress?: ShippingAddress | null;
  /** One of paymentMethods(); the first when left out. */
  paymentMethodId?: string | null;
  returnUrl?: string | null;
  promotionCode?: string | null;
}

/** Who orders as a guest: a name and an email or a phone (a signed-in customer may give them too). */
export interface GuestDetails {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
}

/** An order the business places for a customer: no guest details, no return from a provider's page. */
export type PosOrderInput = Omit<CheckoutInput, 'customer' | 'returnUrl'>;

/** The merchant's order list: its filters as the edge checked them, and its page. */
export interface OrderListArgs {
  status?: OrderStatus | null;
  customerId?: string | null;
  from?: Date | null;
  to?: Date | null;
  page?: number | null;
  limit?: number | null;
  offset?: number | null;
}

/** Who the order is for: a signed-in customer, a guest, or (POS) a customer the merchant names. */
interface Buyer {
  customerId: string | null;
  name: string;
  email: string | null;
  phone: string | null;
}

export interface PlacedOrder {
  order: OrderRow;
  /** For guests: the token that reads the order's payment status (shown once). */
  accessToken: string | null;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The storefront's buyer: the signed-in customer (facts from commerce's projection) or the guest's details. */
async function storefrontBuyer(ctx: RequestContext, customer: GuestDetails | null | undefined): Promise<Buyer> {
  const p = ctx.principal;
  const email = customer?.email ?? null;
  const phone = customer?.phone ?? null;
  if (p.kind === 'customer') {
    const known = await customers.find(ctx, p.customerId);
    const name = customer?.name ?? (known ? [known.name, known.lastName].filter(Boolean).join(' ') : 'Customer');
    return { customerId: p.customerId, name, email: email ?? known?.email ?? p.verifiedEmail ?? null, phone: phone ?? known?.phone ?? p.verifiedPhone ?? null };
  }
  if (!customer) throw badInput('customer', 'is required without a customer token (name and an email or phone)');
  const { name } = customer;
  if (!name) throw badInput('customer.name', 'is required');
  if (!email && !phone) throw badInput('customer.email', 'an email or a phone is needed for the order messages');
  return { customerId: null, name, email, phone };
}

/** Checkout on the storefront (`POST /shop/orders`): a guest or the signed-in customer. */
export async function placeOrder(ctx: RequestContext, input: CheckoutInput): Promise<PlacedOrder> {
  const buyer = await storefrontBuyer(ctx, input.customer);
  return createOrder(ctx, input, buyer, 'online');
}

/** An order the business places for one of its customers (`create_shop_order`, channel pos). */
export async function placePosOrder(ctx: RequestContext, accountId: string, input: PosOrderInput): Promise<PlacedOrder> {
  const customer = await customers.find(ctx, accountId);
  if (!customer) throw badInput('accountId', 'is not a customer of this company');
  const buyer = {
    customerId: customer.customerId,
    name: [customer.name, customer.lastName].filter(Boolean).join(' '),
    email: customer.email ?? null,
    phone: customer.phone ?? null,
  };
  return createOrder(ctx, { ...input, paymentMethodId: input.paymentMethodId ?? 'manual' }, buyer, 'pos');
}

async function createOrder(ctx: RequestContext, input: CheckoutInput, buyer: Buyer, channel: OrderChannel): Promise<PlacedOrder> {
  const { items } = input;
  const method: PaymentMethodInfo = choosePaymentMethod(ctx, input.paymentMethodId);
  const returnUrl = input.returnUrl ?? null;
  const promotionCode = input.promotionCode ?? null;
  // Read before the transaction: settings come from the kernel's cache or connection.
  const [{ currency }, settings] = await Promise.all([tenantSettings(ctx), shopSettings(ctx)]);
  let shipping: RowOf<'commerce.shipping_method'> | null = null;
  if (input.shippingMethodId != null) {
    shipping = await ctx.first(
      ctx.query.selectFrom('commerce.shipping_method').selectAll().where('id', '=', input.shippingMethodId).where('active', '=', true),
    );
    if (!shipping) throw badInput('shippingMethodId', 'is not an active shipping method of this shop');
  }
  // An address is kept only for a method that ships to one.
  const address = shipping?.needsAddress ? (input.shippingAddress ?? null) : null;
  if (shipping?.needsAddress && !address) throw badInput('shippingAddress', 'is required for this shipping method');
  const accessToken = `ord_${randomBytes(24).toString('base64url')}`;

  const order = await ctx.transaction(async (tx) => {
    const lines = await resolveItems(tx, items, currency);
    await reserveStock(tx, lines);
    const priced = lines.map((l) => ({ ...l, ...lineMoney(l, settings.pricesIncludeTax) }));
    const subtotalMinor = priced.reduce((s, l) => s + l.totalMinor, 0);
    const orderId = newId();
    let shippingMinor = shipping ? shippingCost(shipping, subtotalMinor) : 0;
    // The code's use is taken here, in the order's transaction (a refusal writes nothing).
    const customerKey = buyer.customerId ?? buyer.email?.toLowerCase() ?? buyer.phone ?? null;
    const promotion = promotionCode
      ? await takePromotion(tx, { code: promotionCode, channel, amountMinor: subtotalMinor, shippingMinor, customerKey, orderId })
      : null;
    if (promotion?.type === 'free_shipping') shippingMinor = 0;
    const money = orderMoney(priced, shippingMinor, promotion?.discountMinor ?? 0, settings.pricesIncludeTax);
    const free = money.totalMinor === 0;
    const manual = method.kind === 'MANUAL';
    // Taken last: the counter row is locked until commit, so the order number comes after the stock.
    const { lastNumber: number } = await tx.query
      .insertInto('commerce.order_counter')
      .values({ lastNumber: 1 })
      .onConflict((oc) => oc.column('companyId').doUpdateSet((e) => ({ lastNumber: e('commerce.order_counter.lastNumber', '+', 1) })))
      .returning('lastNumber')
      .executeTakeFirstOrThrow();
    const now = tx.now();
    const row = tx.em.create(Order, {
      id: orderId,
      number,
      status: free ? 'PAID' : 'PENDING_PAYMENT',
      channel,
      customerId: buyer.customerId,
      customerName: buyer.name,
      customerEmail: buyer.email,
      customerPhone: buyer.phone,
      shippingMethodId: shipping?.id ?? null,
      shippingAddress: address,
      paymentMethodId: method.id,
      promotionCode,
      currency,
      pricesIncludeTax: settings.pricesIncludeTax,
      ...money,
      refundedMinor: 0,
      accessTokenHash: hashToken(accessToken),
      // A provider payment has a window; a pay-at-the-venue order waits for the business.
      expiresAt: free || manual ? null : new Date(now.getTime() + settings.paymentWindowMinutes * 60_000),
      paidAt: free ? now : null,
      fulfilledAt: null,
      cancelledAt: null,
      cancelReason: null,
      // One instant: the payment window is measured from the order's creation.
      createdAt: now,
      updatedAt: now,
    });
    priced.forEach((l, position) =>
      tx.em.create(OrderLine, {
        id: newId(),
        orderId: row.id,
        position,
        productId: l.productId,
        variantId: l.variantId,
        name: l.name,
        variantName: l.variantName,
        sku: l.sku,
        quantity: l.quantity,
        unitPriceMinor: l.unitPriceMinor,
        taxRate: l.taxRate,
        taxMinor: l.taxMinor,
        totalMinor: l.totalMinor,
        stockReserved: l.trackInventory,
      }),
    );
    if (free) {
      publishPaid(tx, row, priced);
      await notifyOrder(tx, row, 'placed');
      return row;
    }
    if (!manual) {
      tx.em.create(Payment, {
        id: newId(),
        orderId: row.id,
        registrationId: null,
        provider: method.provider!,
        providerPaymentId: null,
        paymentMethodId: method.id,
        status: 'requires_payment_method',
        amountMinor: money.totalMinor,
        refundedMinor: 0,
        currency,
        returnUrl,
        nextActionUrl: null,
      });
      tx.runAt(EXPIRE_ORDERS_QUEUE, row.expiresAt ?? null, { companyId: tx.companyId, orderId: row.id });
    }
    await notifyOrder(tx, row, 'awaiting_payment');
    return row;
  });
  // The provider is called once the order is committed (never inside a transaction: it is another
  // system); a failure leaves the order to expire.
  if (order.status === 'PENDING_PAYMENT' && method.kind === 'PROVIDER') await openProviderPayment(ctx, { orderId: order.id });
  return {
    order: (await ctx.first(ctx.query.selectFrom('commerce.shop_order').selectAll().where('id', '=', order.id)))!,
    accessToken: buyer.customerId ? null : accessToken,
  };
}

// ---- Reads ---------------------------------------------------------------------------------------

export async function findOrder(ctx: RequestContext, orderId: string): Promise<OrderRow> {
  const order = await ctx.first(ctx.query.selectFrom('commerce.shop_order').selectAll().where('id', '=', orderId));
  if (!order) throw notFound('Order');
  return order;
}

/**
 * An order whose payment status a storefront reads: the signed-in customer's own, or any order of
 * the company with its access token. Anyone else's is not found.
 */
async function findOrderForCaller(ctx: RequestContext, orderId: string, accessToken: string | null | undefined): Promise<OrderRow> {
  const order = await ctx.first(ctx.query.selectFrom('commerce.shop_order').selectAll().where('id', '=', orderId));
  const p = ctx.principal;
  const mine = order && p.kind === 'customer' && order.customerId === p.customerId;
  const tokenFits = order && typeof accessToken === 'string' && accessToken.length > 0 && hashToken(accessToken) === order.accessTokenHash;
  if (!order || !(mine || tokenFits)) throw notFound('Order');
  return order;
}

/**
 * An order's payment status, for the signed-in customer's own order or with its access token. A
 * customer back from the provider's page gets the provider's answer rather than waiting for its webhook.
 */
export async function paymentStatus(ctx: RequestContext, orderId: string, accessToken: string | null | undefined) {
  let order = await findOrderForCaller(ctx, orderId, accessToken);
  let payment = await paymentIntentOf(ctx, order.id);
  if (payment && order.status === 'PENDING_PAYMENT') {
    await syncPayment(ctx, payment);
    // The payment is read again directly: the request's loader keeps what it read first.
    [order, payment] = await Promise.all([
      findOrder(ctx, order.id),
      ctx.first(ctx.query.selectFrom('commerce.payment').selectAll().where('id', '=', payment.id)),
    ]);
  }
  return { order, payment };
}

export async function listOrders(ctx: RequestContext, args: OrderListArgs) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('commerce.shop_order').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc');
  if (args.status) select = select.where('status', '=', args.status);
  if (args.customerId != null) select = select.where('customerId', '=', args.customerId);
  if (args.from) select = select.where('createdAt', '>=', args.from);
  if (args.to) select = select.where('createdAt', '<', args.to);
  if (args.from && args.to && args.from.getTime() >= args.to.getTime()) throw badInput('to', 'must be after from');
  return ctx.page(select, req);
}

export function listMyOrders(ctx: RequestContext, args: { page?: number | null; limit?: number | null }) {
  const select = ctx.query
    .selectFrom('commerce.shop_order')
    .selectAll()
    .where('customerId', '=', ctx.customer.customerId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc');
  return ctx.page(select, pageRequest(args));
}

/** Lines of many orders in one query, in each order's line order. */
export async function orderLines(ctx: RequestContext, orderIds: readonly string[]) {
  const rows = await ctx.all(
    ctx.query.selectFrom('commerce.order_line').selectAll().where('orderId', '=', anyOf(orderIds)).orderBy('orderId').orderBy('position'),
  );
  return perKey(orderIds, rows, (r) => r.orderId);
}

/** An order's lines, batched per response. */
export const linesOf = (ctx: RequestContext, orderId: string) =>
  ctx.loader('commerce.orderLines', (ids: readonly string[]) => orderLines(ctx, ids)).load(orderId);

// ---- Merchant moves ------------------------------------------------------------------------------

/** The order row, locked for this transaction, whose state may move to `to`; else INVALID_STATE_TRANSITION. */
export async function lockOrder(tx: RequestContext, id: string, to: OrderStatus): Promise<Order> {
  const row = await tx.em.findOne(Order, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!row) throw notFound('Order');
  orderStates.assert(row.status, to);
  return row;
}

/** The merchant records a manual payment (pay at the venue, or cash at the counter). */
export async function markOrderPaid(ctx: RequestContext, orderId: string) {
  const { id } = await findOrder(ctx, orderId);
  const order = await ctx.transaction(async (tx) => {
    const row = await lockOrder(tx, id, 'PAID');
    await markPaidInTx(tx, row);
    return row;
  });
  // An open provider payment of that order is no longer wanted.
  await cancelOpenPayments(ctx, { orderId: id });
  return order;
}

export async function fulfilOrder(ctx: RequestContext, orderId: string) {
  const { id } = await findOrder(ctx, orderId);
  return ctx.transaction(async (tx) => {
    const row = await lockOrder(tx, id, 'FULFILLED');
    row.status = 'FULFILLED';
    row.fulfilledAt = tx.now();
    await notifyOrder(tx, row, 'fulfilled');
    return row;
  });
}

/**
 * Ends an unpaid order: CANCELLED by the merchant or EXPIRED at the end of its payment window. Its
 * reserved stock is released and its open payment canceled at the provider first, so a payment
 * cannot succeed afterwards; a payment that succeeded meanwhile pays the order instead (then the
 * move is refused as INVALID_STATE_TRANSITION).
 */
export async function endUnpaidOrder(ctx: RequestContext, orderId: string, to: 'CANCELLED' | 'EXPIRED', reason: string | null): Promise<Order | null> {
  const current = await findOrder(ctx, orderId);
  orderStates.assert(current.status, to);
  if (to === 'EXPIRED' && (!current.expiresAt || current.expiresAt.getTime() > ctx.now().getTime())) return null;
  await cancelOpenPayments(ctx, { orderId });
  return ctx.transaction(async (tx) => {
    const row = await lockOrder(tx, orderId, to);
    row.status = to;
    row.cancelledAt = tx.now();
    row.cancelReason = reason;
    row.expiresAt = null;
    await releaseStock(tx, row.id);
    await releasePromotion(tx, row.id);
    tx.publish('commerce.order.cancelled', { orderId: row.id, number: row.number, customerId: row.customerId ?? null, status: to, reason });
    await notifyOrder(tx, row, to === 'EXPIRED' ? 'expired' : 'cancelled');
    return row;
  });
}

export function cancelOrder(ctx: RequestContext, orderId: string, reason: string | null | undefined) {
  return endUnpaidOrder(ctx, orderId, 'CANCELLED', reason ?? null) as Promise<Order>;
}

/**
 * Refunds a paid order, in whole (no amount) or in part, through the provider that took the
 * payment (a manual payment is refunded by the business itself and only recorded here). The
 * refund is first recorded on the locked order, so concurrent refunds never exceed what was paid;
 * if the provider then refuses it, the record is taken back and the answer is PAYMENT_FAILED.
 */
export async function refundOrder(ctx: RequestContext, orderId: string, amount: string | null | undefined) {
  const { id, currency } = await findOrder(ctx, orderId);
  const requested = amount == null ? null : parseAmount('amount', amount, currency);
  if (requested !== null && requested <= 0) throw badInput('amount', 'must be more than 0');
  const { refundMinor, before } = await ctx.transaction(async (tx) => {
    const row = await tx.em.findOne(Order, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!row) throw notFound('Order');
    const left = row.totalMinor - row.refundedMinor;
    const refund = requested ?? left;
    if (refund > left) throw badInput('amount', `must be at most ${toMoney(left, row.currency).amount}, what is left to refund`);
    const to: OrderStatus = refund === left ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    orderStates.assert(row.status, to);
    if (refund <= 0) throw badInput('amount', 'nothing is left to refund');
    const previous = { status: row.status, refundedMinor: row.refundedMinor };
    row.refundedMinor += refund;
    row.status = to;
    return { refundMinor: refund, before: previous };
  });
  try {
    await refundPayments(ctx, id, refundMinor);
  } catch (error) {
    await ctx.transaction(async (tx) => {
      const row = await tx.em.findOneOrFail(Order, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      row.refundedMinor -= refundMinor;
      if (row.refundedMinor === before.refundedMinor) row.status = before.status;
    });
    throw error instanceof AppError ? error : new AppError('PAYMENT_FAILED', 'The provider refused the refund');
  }
  return ctx.transaction(async (tx) => {
    const row = await tx.first(tx.query.selectFrom('commerce.shop_order').selectAll().where('id', '=', id));
    if (!row) throw notFound('Order');
    tx.publish('commerce.order.refunded', {
      orderId: row.id,
      number: row.number,
      customerId: row.customerId ?? null,
      amountMinor: refundMinor,
      refundedMinor: row.refundedMinor,
      totalMinor: row.totalMinor,
      currency: row.currency,
      status: row.status as 'REFUNDED' | 'PARTIALLY_REFUNDED',
    });
    await notifyOrder(tx, row, 'refunded', { refundMinor });
    return row;
  });
}

export { paymentIntentOf };
