/**
 * Payments through a provider: opening an intent, and moving a payment (and its order) only
 * through guarded transitions, whatever reports the provider's state: its webhook, the customer's
 * return (a status read), a cancel or an expiry. A repeated or late report never pays twice.
 */
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import { activatePaidPeriod } from '../../kernel/plans.ts';
import { anyOf } from '../../kernel/query.ts';
import { Order } from '../entities/order.ts';
import { Payment, type PaymentStatus } from '../entities/payment.ts';
import { markPaidInTx } from './order-paid.ts';
import { providerFor } from './payments/index.ts';
import type { IntentState, ProviderEvent } from './payments/provider.ts';
import { paymentStates } from './states.ts';

const FINAL: PaymentStatus[] = ['succeeded', 'canceled'];

/** The queue on which verified webhook events reach commerce (routes.ts puts them there). */
export const WEBHOOK_QUEUE = 'commerce.webhook';

/** Opens the provider intent of a payment not yet sent to its provider (an order's, or a registration's). */
export async function openProviderPayment(ctx: RequestContext, of: { orderId: string } | { paymentId: string }, description = 'Order'): Promise<void> {
  const select = ctx.query.selectFrom('commerce.payment').selectAll();
  const payment = await ctx.first(
    'orderId' in of
      ? select.where('orderId', '=', of.orderId).where('providerPaymentId', 'is', null).where('status', '=', 'requires_payment_method')
      : select.where('id', '=', of.paymentId),
  );
  if (!payment || payment.providerPaymentId) return;
  const state = await providerFor(ctx.runtime, payment.provider).createIntent({
    paymentId: payment.id,
    companyId: ctx.companyId,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    paymentMethodId: payment.paymentMethodId,
    returnUrl: payment.returnUrl ?? null,
    description,
  });
  await ctx.transaction((tx) => applyState(tx, payment.id, state));
}

/**
 * Moves a payment to the provider's state, inside `tx`: the payment row is locked, a move its state
 * machine does not allow (a stale or repeated report) changes nothing, and a payment that
 * succeeds pays its order (PENDING_PAYMENT → PAID) and announces `commerce.payment.succeeded`.
 */
export async function applyState(tx: RequestContext, paymentId: string, state: Partial<IntentState> & { status: PaymentStatus }): Promise<Payment | null> {
  const payment = await tx.em.findOne(Payment, { id: paymentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!payment) return null;
  if (state.providerPaymentId && !payment.providerPaymentId) payment.providerPaymentId = state.providerPaymentId;
  if (state.nextActionUrl !== undefined && !FINAL.includes(payment.status)) payment.nextActionUrl = state.nextActionUrl;
  // A payment opens as requires_payment_method: a decline keeps that status and adds its reason.
  if (payment.status === 'requires_payment_method' && state.status === payment.status && state.failureCode !== undefined) {
    payment.failureCode = state.failureCode ?? null;
    payment.failureMessage = state.failureMessage ?? null;
  }
  if (payment.status === state.status || !paymentStates.can(payment.status, state.status)) return payment;
  payment.status = state.status;
  payment.failureCode = state.status === 'requires_payment_method' ? (state.failureCode ?? null) : null;
  payment.failureMessage = state.status === 'requires_payment_method' ? (state.failureMessage ?? null) : null;
  if (FINAL.includes(state.status)) payment.nextActionUrl = null;
  if (state.status !== 'succeeded') return payment;
  tx.publish('commerce.payment.succeeded', {
    paymentId: payment.id,
    orderId: payment.orderId ?? null,
    registrationId: payment.registrationId ?? null,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    provider: payment.provider,
  });
  if (payment.registrationId) {
    // Content confirms the registration on the event above; the window is over.
    await tx.query
      .updateTable('commerce.payable_registration')
      .set({ status: 'PAID' })
      .where('registrationId', '=', payment.registrationId)
      .where('status', '=', 'PENDING_PAYMENT')
      .execute();
  }
  // A month of a plan for the company itself starts (or extends) its paid time.
  if (payment.planId) await activatePaidPeriod(tx, payment.planId);
  if (payment.orderId) {
    const order = await tx.em.findOne(Order, { id: payment.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    // An order ended meanwhile had its intent canceled first; a payment that still got through is
    // left for the merchant to refund (it stays visible on the order).
    if (order?.status === 'PENDING_PAYMENT') await markPaidInTx(tx, order);
  }
  return payment;
}

const STATUS_OF_EVENT: Record<ProviderEvent['type'], PaymentStatus | null> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'requires_payment_method',
  'payment_intent.canceled': 'canceled',
  'payment_intent.requires_action': 'requires_action',
  'charge.refunded': null,
};

/**
 * A verified webhook event, once: recorded by its provider event id in the transaction that
 * applies it, so a repeat delivery (or the queue's retry) finds it and changes nothing.
 */
export async function handleWebhookEvent(ctx: RequestContext, provider: string, event: ProviderEvent): Promise<void> {
  await ctx.transaction(async (tx) => {
    // The payment's own company column gives the event its company (the payment is this company's).
    const fresh = await tx.query
      .insertInto('commerce.webhook_event')
      .columns(['provider', 'eventId', 'companyId', 'type', 'paymentId', 'receivedAt'])
      .expression((e) =>
        e
          .selectFrom('commerce.payment')
          .select((p) => [
            p.val(provider).as('provider'),
            p.val(event.id).as('eventId'),
            'companyId',
            p.val(event.type).as('type'),
            'id',
            p.val(tx.now()).as('receivedAt'),
          ])
          .where('id', '=', event.paymentId)
          .where('provider', '=', provider),
      )
      .onConflict((oc) => oc.doNothing())
      .returning('eventId')
      .execute();
    if (!fresh.length) return;
    const status = STATUS_OF_EVENT[event.type];
    if (status)
      await applyState(tx, event.paymentId, {
        status,
        providerPaymentId: event.providerPaymentId,
        failureCode: event.failureCode,
        failureMessage: event.failureMessage,
      });
  });
}

/** A payment as it is now (not a request's loader, which keeps what it read first). */
export const paymentNow = (ctx: RequestContext, id: string) => ctx.first(ctx.query.selectFrom('commerce.payment').selectAll().where('id', '=', id));

/** Asks the provider for the state of an open payment and applies it (the customer's return). */
export async function syncPayment(
  ctx: RequestContext,
  payment: { id: string; provider: string; providerPaymentId?: string | null; status: PaymentStatus },
): Promise<void> {
  if (!payment.providerPaymentId || FINAL.includes(payment.status)) return;
  const state = await providerFor(ctx.runtime, payment.provider).status(payment.providerPaymentId);
  if (state.status !== payment.status) await ctx.transaction((tx) => applyState(tx, payment.id, state));
}

/** Cancels the open payments of an order or registration, or one payment, at their provider (one that succeeded meanwhile pays instead). */
export async function cancelOpenPayments(ctx: RequestContext, of: { orderId: string } | { registrationId: string } | { paymentId: string }): Promise<void> {
  const select = ctx.query.selectFrom('commerce.payment').selectAll().where('status', 'not in', FINAL);
  const open = await ctx.all(
    'orderId' in of
      ? select.where('orderId', '=', of.orderId)
      : 'registrationId' in of
        ? select.where('registrationId', '=', of.registrationId)
        : select.where('id', '=', of.paymentId),
  );
  for (const payment of open) {
    const state = payment.providerPaymentId
      ? await providerFor(ctx.runtime, payment.provider).cancel(payment.providerPaymentId)
      : { status: 'canceled' as const };
    await ctx.transaction((tx) => applyState(tx, payment.id, state));
  }
}

/** Refunds `amountMinor` of an order's succeeded provider payments, at the provider first. */
export async function refundPayments(ctx: RequestContext, orderId: string, amountMinor: number): Promise<void> {
  const paid = await ctx.all(
    ctx.query.selectFrom('commerce.payment').selectAll().where('orderId', '=', orderId).where('status', '=', 'succeeded').orderBy('createdAt'),
  );
  let left = amountMinor;
  for (const payment of paid) {
    const share = Math.min(left, payment.amountMinor - payment.refundedMinor);
    if (share <= 0) continue;
    const result = await providerFor(ctx.runtime, payment.provider).refund(payment.providerPaymentId!, share);
    if (result.status === 'failed') throw new AppError('PAYMENT_FAILED', 'The payment provider refused the refund');
    await ctx.transaction(async (tx) => {
      await tx.query
        .updateTable('commerce.payment')
        .set((e) => ({ refundedMinor: e('refundedMinor', '+', share), updatedAt: tx.now() }))
        .where('id', '=', payment.id)
        .execute();
    });
    left -= share;
    if (!left) return;
  }
  // What is left was paid outside a provider (at the venue): the business refunds it itself.
}

/** The latest payment of each order, in one query. */
export async function latestPayments(ctx: RequestContext, orderIds: readonly string[]) {
  const rows = await ctx.all(
    ctx.query.selectFrom('commerce.payment').selectAll().where('orderId', '=', anyOf(orderIds)).orderBy('createdAt', 'desc').orderBy('id', 'desc'),
  );
  return orderIds.map((id) => rows.find((r) => r.orderId === id) ?? null);
}

export const paymentIntentOf = (ctx: RequestContext, orderId: string) =>
  ctx.loader('commerce.latestPayment', (ids: readonly string[]) => latestPayments(ctx, ids)).load(orderId);
