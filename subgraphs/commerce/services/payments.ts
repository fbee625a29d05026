/**
 * Payments through a provider: opening an intent, and moving a payment (and its order) only
 * through guarded transitions, whatever reports the provider's state: its webhook, the customer's
 * return (a status read), a cancel or an expiry. A repeated or late report never pays twice.
 */
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import { Order } from '../entities/order.ts';
import { Payment, type PaymentStatus } from '../entities/payment.ts';
import { markPaidInTx } from './orders.ts';
import { providerFor } from './payments/index.ts';
import type { IntentState, ProviderEvent } from './payments/provider.ts';
import { paymentStates } from './states.ts';

const FINAL: PaymentStatus[] = ['succeeded', 'canceled'];

/** The queue on which verified webhook events reach commerce (routes.ts puts them there). */
export const WEBHOOK_QUEUE = 'commerce.webhook';

/** Opens the provider intent of a payment not yet sent to its provider (an order's, or a registration's). */
export async function openProviderPayment(ctx: RequestContext, of: { orderId: string } | { paymentId: string }, description = 'Order'): Promise<void> {
  const payment = await ctx.row(Payment, 'orderId' in of ? { orderId: of.orderId, providerPaymentId: null, status: 'requires_payment_method' } : { id: of.paymentId });
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
    await tx.tenantSql`update commerce.payable_registration set status = 'PAID'
      where company_id = ${COMPANY} and registration_id = ${payment.registrationId} and status = 'PENDING_PAYMENT'`;
  }
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
    const fresh = await tx.tenantSql`insert into commerce.webhook_event (provider, event_id, company_id, type, payment_id, received_at)
      select ${provider}, ${event.id}, ${COMPANY}, ${event.type}, id, ${tx.now()} from commerce.payment
       where company_id = ${COMPANY} and id = ${event.paymentId} and provider = ${provider}
      on conflict do nothing returning event_id`;
    if (!fresh.length) return;
    const status = STATUS_OF_EVENT[event.type];
    if (status) await applyState(tx, event.paymentId, { status, providerPaymentId: event.providerPaymentId, failureCode: event.failureCode, failureMessage: event.failureMessage });
  });
}

/** Asks the provider for the state of an open payment and applies it (the customer's return). */
export async function syncPayment(ctx: RequestContext, payment: { id: string; provider: string; providerPaymentId?: string | null; status: PaymentStatus }): Promise<void> {
  if (!payment.providerPaymentId || FINAL.includes(payment.status)) return;
  const state = await providerFor(ctx.runtime, payment.provider).status(payment.providerPaymentId);
  if (state.status !== payment.status) await ctx.transaction((tx) => applyState(tx, payment.id, state));
}

/** Cancels the open payments of an order or registration at their provider (one that succeeded meanwhile pays instead). */
export async function cancelOpenPayments(ctx: RequestContext, of: { orderId: string } | { registrationId: string }): Promise<void> {
  const open = await ctx.rows(Payment, { ...of, status: { $nin: FINAL } });
  for (const payment of open) {
    const state = payment.providerPaymentId ? await providerFor(ctx.runtime, payment.provider).cancel(payment.providerPaymentId) : { status: 'canceled' as const };
    await ctx.transaction((tx) => applyState(tx, payment.id, state));
  }
}

/** Refunds `amountMinor` of an order's succeeded provider payments, at the provider first. */
export async function refundPayments(ctx: RequestContext, orderId: string, amountMinor: number): Promise<void> {
  const paid = await ctx.rows(Payment, { orderId, status: 'succeeded' }, { orderBy: { createdAt: 'asc' } });
  let left = amountMinor;
  for (const payment of paid) {
    const share = Math.min(left, payment.amountMinor - payment.refundedMinor);
    if (share <= 0) continue;
    const result = await providerFor(ctx.runtime, payment.provider).refund(payment.providerPaymentId!, share);
    if (result.status === 'failed') throw new AppError('PAYMENT_FAILED', 'The payment provider refused the refund');
    await ctx.transaction(async (tx) => {
      await tx.tenantSql`update commerce.payment set refunded_minor = refunded_minor + ${share}, updated_at = ${tx.now()} where company_id = ${COMPANY} and id = ${payment.id}`;
    });
    left -= share;
    if (!left) return;
  }
  // What is left was paid outside a provider (at the venue): the business refunds it itself.
}

/** The latest payment of each order, in one query. */
export async function latestPayments(ctx: RequestContext, orderIds: readonly string[]) {
  const rows = await ctx.rows(Payment, { orderId: { $in: [...orderIds] } }, { orderBy: { createdAt: 'desc', id: 'desc' } });
  return orderIds.map((id) => rows.find((r) => r.orderId === id) ?? null);
}

export const paymentIntentOf = (ctx: RequestContext, orderId: string) =>
  ctx.loader('commerce.latestPayment', (ids: readonly string[]) => latestPayments(ctx, ids)).load(orderId);

export const newPaymentId = newId;
