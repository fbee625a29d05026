/**
 * The company's own plan: what it is on and used (kernel/plans.ts), buying a month of a paid plan
 * through the platform's checkout, and moving to a cheaper plan at the period's end. A month is a
 * payment like any other (services/payments.ts): the provider's page, its signed webhook, the
 * guarded state machine; the payment that succeeds starts or extends the paid plan in its own
 * transaction, once however often the provider reports it.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, conflict } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { METERS, type Meter, type PlanDefinition } from '../../kernel/plan-catalogue.ts';
import { planOf, scheduleMove, usageIn, type CurrentPlan } from '../../kernel/plans.ts';
import { Payment } from '../entities/payment.ts';
import { choosePaymentMethod } from './payment-methods.ts';
import { cancelOpenPayments, openProviderPayment, paymentNow, syncPayment } from './payments.ts';

export interface PlanAndUsage {
  current: CurrentPlan & { definition: PlanDefinition };
  usage: { meter: Meter; used: number; limit: number }[];
  /** The plan the company moves to at the end of its paid time, when it chose one. */
  scheduled: PlanDefinition | null;
  plans: readonly PlanDefinition[];
}

export async function planAndUsage(ctx: RequestContext): Promise<PlanAndUsage> {
  const plans = ctx.runtime.config.plans;
  const current = await planOf(ctx);
  const used = await usageIn(ctx, current.periodStart);
  return {
    current: { ...current, definition: definitionOf(plans, current.planId) },
    usage: (Object.entries(METERS) as [Meter, keyof CurrentPlan['limits']][]).map(([meter, limit]) => ({
      meter,
      used: used[meter],
      limit: current.limits[limit],
    })),
    scheduled: current.nextPlanId ? definitionOf(plans, current.nextPlanId) : null,
    plans,
  };
}

/** A plan removed from the configuration while a company was on it still shows, as stored. */
function definitionOf(plans: readonly PlanDefinition[], id: string): PlanDefinition {
  return plans.find((p) => p.id === id) ?? { id, name: id, price: { amountMinor: 0, currency: 'USD' }, features: [], limits: plans[0].limits };
}

/** What the edge checked (resolvers/plan.inputs.ts). */
export interface PlanCheckoutInput {
  plan: string;
  paymentMethodId?: string | null;
  returnUrl?: string | null;
}

/**
 * A month of a paid plan: a payment through a provider, whose page the merchant is sent to. On
 * that plan already, the month is added after the paid time; a cheaper paid plan than the one
 * paid for is chosen with change_plan instead. An open checkout of the same plan and method is
 * given back rather than a second one.
 */
export async function startPlanCheckout(ctx: RequestContext, input: PlanCheckoutInput) {
  const plans = ctx.runtime.config.plans;
  const target = plans.find((p) => p.id === input.plan);
  const paid = plans.filter((p) => p.price.amountMinor > 0).map((p) => p.id);
  if (!target || target.price.amountMinor === 0) throw badInput('plan', `must be a paid plan: ${paid.join(', ')}`);
  const current = await planOf(ctx);
  if (current.paidUntil && plans.findIndex((p) => p.id === current.planId) > plans.indexOf(target))
    throw conflict(`The company has paid for the ${current.planId} plan until ${current.paidUntil.toISOString()}; move to ${target.id} with change_plan`, {
      field: 'plan',
    });
  const method = choosePaymentMethod(ctx, input.paymentMethodId);
  if (method.kind !== 'PROVIDER') throw badInput('paymentMethodId', 'must be a provider payment method (a plan is paid online)');
  const returnUrl = input.returnUrl ?? null;
  const open = await ctx.first(
    ctx.query
      .selectFrom('commerce.payment')
      .selectAll()
      .where('planId', 'is not', null)
      .where('status', 'not in', ['succeeded', 'canceled'])
      .where('providerPaymentId', 'is not', null)
      .orderBy('createdAt', 'desc'),
  );
  if (open && open.planId === target.id && open.paymentMethodId === method.id && open.returnUrl === returnUrl) {
    await syncPayment(ctx, open);
    return (await paymentNow(ctx, open.id))!;
  }
  // One open checkout at a time: another plan or method replaces it.
  if (open) await cancelOpenPayments(ctx, { paymentId: open.id });
  const payment = await ctx.transaction(async (tx) =>
    tx.em.create(Payment, {
      id: newId(),
      orderId: null,
      registrationId: null,
      planId: target.id,
      provider: method.provider!,
      providerPaymentId: null,
      paymentMethodId: method.id,
      status: 'requires_payment_method',
      amountMinor: target.price.amountMinor,
      refundedMinor: 0,
      currency: target.price.currency,
      returnUrl,
      nextActionUrl: null,
    }),
  );
  await openProviderPayment(ctx, { paymentId: payment.id }, `${target.name} plan, one month`);
  return (await paymentNow(ctx, payment.id))!;
}

/**
 * Moves the company to another plan at the end of its paid time: a cheaper one (a downgrade; the
 * free plan included), or back to the one it is on, which drops a move chosen before. A more
 * expensive plan is bought with start_plan_checkout.
 */
export async function changePlan(ctx: RequestContext, planId: string): Promise<void> {
  const plans = ctx.runtime.config.plans;
  const target = plans.find((p) => p.id === planId);
  if (!target) throw badInput('plan', `must be one of ${plans.map((p) => p.id).join(', ')}`);
  const current = await planOf(ctx);
  if (plans.indexOf(target) > plans.findIndex((p) => p.id === current.planId))
    throw conflict(`${target.name} is bought with start_plan_checkout`, { field: 'plan' });
  if (!current.paidUntil) {
    if (target.id === current.planId) return;
    throw conflict(`The company is on the ${current.planId} plan, which has nothing to move from`, { field: 'plan' });
  }
  await ctx.transaction((tx) => scheduleMove(tx, target.id === current.planId ? null : target.id));
}
