/**
 * Payment of a paid event registration (content's). Content tells commerce what is owed when a
 * registration is made (`content.registration.created`); commerce opens the payment, and its
 * success is announced as `commerce.payment.succeeded`, on which content confirms the
 * registration. Commerce never writes content's tables, nor content commerce's. Commerce owns the
 * payment window: when it ends unpaid, `commerce.registration.payment-expired` tells content to
 * free the seats.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { sweepDue } from '../../kernel/sweeps.ts';
import { badInput, conflict, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import type { RegistrationCreated } from '../../content/events.ts';
import { Payment } from '../entities/payment.ts';
import { choosePaymentMethod } from './payment-methods.ts';
import { cancelOpenPayments, openProviderPayment, paymentNow, syncPayment } from './payments.ts';
import { catchUpOnEvent } from '../../kernel/projections.ts';
import { shopSettings } from './settings.ts';

export const REGISTRATION_WINDOW_QUEUE = 'commerce.registration-window';

/** Records a registration content made (idempotent); a paid one gets its payment window. */
export async function recordRegistration(tx: RequestContext, facts: RegistrationCreated): Promise<void> {
  const { paymentWindowMinutes } = await shopSettings(tx);
  const created = new Date(facts.createdAt);
  const due = new Date(created.getTime() + paymentWindowMinutes * 60_000);
  const fresh = await tx.query
    .insertInto('commerce.payable_registration')
    .values({
      registrationId: facts.registrationId,
      eventId: facts.eventId,
      eventTitle: facts.eventTitle,
      customerId: facts.customerId,
      email: facts.email,
      amountMinor: facts.amountMinor,
      currency: facts.currency,
      status: facts.status,
      createdAt: created,
      paymentDueAt: due,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('registrationId')
    .execute();
  if (fresh.length && facts.status === 'PENDING_PAYMENT')
    tx.runAt(REGISTRATION_WINDOW_QUEUE, due, { companyId: tx.companyId, registrationId: facts.registrationId });
}

/** How a registration is paid, as the edge checked it (resolvers/registration-payment.inputs.ts): both optional. */
export interface RegistrationPaymentChoice {
  /** One of the provider methods of paymentMethods(); the first when left out. */
  paymentMethodId?: string | null;
  returnUrl?: string | null;
}

/**
 * `POST /event-registrations/{id}/payment-intent`: the payment of a PENDING_PAYMENT registration's
 * amount through a provider. An open intent of the registration is given back rather than a second
 * one; a registration already paid is 409.
 */
export async function registrationPaymentIntent(ctx: RequestContext, registrationId: string, input: RegistrationPaymentChoice) {
  const method = choosePaymentMethod(ctx, input.paymentMethodId);
  if (method.kind !== 'PROVIDER') throw badInput('paymentMethodId', 'must be a provider payment method (a registration is paid online)');
  const returnUrl = input.returnUrl ?? null;
  const registration = await payableRegistration(ctx, registrationId);
  if (!registration) throw notFound('Registration');
  const payments = await ctx.all(
    ctx.query.selectFrom('commerce.payment').selectAll().where('registrationId', '=', registration.registrationId).orderBy('createdAt', 'desc'),
  );
  if (payments.some((p) => p.status === 'succeeded')) throw conflict('This registration is paid', { field: 'id' });
  if (registration.status !== 'PENDING_PAYMENT' || registration.paymentDueAt.getTime() <= ctx.now().getTime())
    throw conflict('This registration does not wait for payment', { field: 'id' });
  // One open payment at a time (a registration must not be paid twice): the same method resumes
  // it; another method cancels it first (one that succeeded meanwhile makes this a 409 below).
  const open = payments.find((p) => p.status !== 'canceled' && p.providerPaymentId);
  if (open && open.paymentMethodId === method.id && open.returnUrl === returnUrl) {
    await syncPayment(ctx, open);
    return (await paymentNow(ctx, open.id))!;
  }
  if (open) {
    await cancelOpenPayments(ctx, { registrationId: registration.registrationId });
    if ((await paymentNow(ctx, open.id))?.status === 'succeeded') throw conflict('This registration is paid', { field: 'id' });
  }
  const payment = await ctx.transaction(async (tx) =>
    tx.em.create(Payment, {
      id: newId(),
      orderId: null,
      registrationId: registration.registrationId,
      provider: method.provider!,
      providerPaymentId: null,
      paymentMethodId: method.id,
      status: 'requires_payment_method',
      amountMinor: registration.amountMinor,
      refundedMinor: 0,
      currency: registration.currency,
      returnUrl,
      nextActionUrl: null,
    }),
  );
  await openProviderPayment(ctx, { paymentId: payment.id }, `Registration: ${registration.eventTitle}`);
  return (await paymentNow(ctx, payment.id))!;
}

const payableRegistrationRow = (ctx: RequestContext, registrationId: string) =>
  ctx.first(ctx.query.selectFrom('commerce.payable_registration').selectAll().where('registrationId', '=', registrationId));

/**
 * What commerce knows a registration owes. One made a moment ago may not have reached commerce yet:
 * content's event for it, still in commerce's queue, is handled now rather than waited for
 * (kernel/projections.ts); an id with no such event is not found at once.
 */
async function payableRegistration(ctx: RequestContext, registrationId: string) {
  const known = await payableRegistrationRow(ctx, registrationId);
  if (known) return known;
  const caughtUp = await catchUpOnEvent(ctx, 'commerce', 'content.registration.created', { registrationId }, (tx, event) =>
    recordRegistration(tx, event.payload),
  );
  return caughtUp ? payableRegistrationRow(ctx, registrationId) : null;
}

/**
 * The end of a registration's payment window (a job at its due time): unless paid, its open
 * payments are canceled at the provider and content is told to free the seats. Before the due
 * time, or once settled, it changes nothing.
 */
export async function endRegistrationWindow(ctx: RequestContext, registrationId: string): Promise<boolean> {
  const registration = await payableRegistrationRow(ctx, registrationId);
  if (!registration || registration.status !== 'PENDING_PAYMENT' || registration.paymentDueAt.getTime() > ctx.now().getTime()) return false;
  await cancelOpenPayments(ctx, { registrationId });
  return ctx.transaction(async (tx) => {
    // A payment that got through before its cancel pays the registration after all.
    const paid = await tx.all(
      tx.query.selectFrom('commerce.payment').select('id').where('registrationId', '=', registrationId).where('status', '=', 'succeeded'),
    );
    const moved = await tx.query
      .updateTable('commerce.payable_registration')
      .set({ status: paid.length ? 'PAID' : 'EXPIRED' })
      .where('registrationId', '=', registrationId)
      .where('status', '=', 'PENDING_PAYMENT')
      .returning('registrationId')
      .execute();
    if (moved.length && !paid.length) tx.publish('commerce.registration.payment-expired', { registrationId });
    return moved.length > 0 && !paid.length;
  });
}

/**
 * The job: one registration's window (sent with runAt at its due time), or, on its schedule, a
 * sweep of the due registrations of one company or of all (a backstop for a lost job).
 */
export async function runRegistrationWindows(ctx: RequestContext, data: Record<string, unknown>): Promise<number> {
  if (typeof data.registrationId === 'string') return (await endRegistrationWindow(ctx, data.registrationId)) ? 1 : 0;
  return sweepDue(
    ctx,
    data,
    (q, now) =>
      q
        .selectFrom('commerce.payable_registration')
        .select(['companyId', 'registrationId'])
        .where('status', '=', 'PENDING_PAYMENT')
        .where('paymentDueAt', '<=', now)
        .orderBy('paymentDueAt')
        .limit(500),
    (scoped, row) => endRegistrationWindow(scoped, row.registrationId),
  );
}
