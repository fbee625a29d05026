import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { toMoney } from '../../kernel/money.ts';
import type { PlanDefinition } from '../../kernel/plan-catalogue.ts';
import { parse } from '../../kernel/schemas.ts';
import { changePlan, planAndUsage, startPlanCheckout } from '../services/plan-checkout.ts';
import { PlanCheckout, PlanId } from './plan.inputs.ts';
import { PlanAndUsageNode, PlanCheckoutInput, PlanCheckoutNode, PlanNode } from './plan.types.ts';

const planNode = (plan: PlanDefinition): PlanNode => ({
  id: plan.id,
  name: plan.name,
  price: toMoney(plan.price.amountMinor, plan.price.currency),
  features: plan.features,
  limits: plan.limits,
});

@Resolver(() => PlanAndUsageNode)
export class PlanResolver {
  @Requires('merchant', 'account')
  @Query(() => PlanAndUsageNode, { description: 'The company’s plan, its limits, this period’s usage per meter and when the period ends.' })
  async planAndUsage(@Ctx() ctx: RequestContext): Promise<PlanAndUsageNode> {
    const { current, usage, scheduled, plans } = await planAndUsage(ctx);
    return {
      plan: { ...planNode(current.definition), features: current.features, limits: current.limits },
      periodStart: current.periodStart,
      periodEnd: current.periodEnd,
      paidUntil: current.paidUntil,
      scheduledChange: scheduled && current.paidUntil ? { plan: planNode(scheduled), at: current.paidUntil } : null,
      usage: usage.map((u) => ({ ...u, remaining: Math.max(0, u.limit - u.used) })),
      plans: plans.map(planNode),
    };
  }

  @Requires('merchant', 'account')
  @Mutation(() => PlanCheckoutNode, {
    description: 'Buys a month of a paid plan: send the merchant to checkoutUrl; the plan starts (or is paid a month further) when the payment succeeds.',
  })
  async startPlanCheckout(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => PlanCheckoutInput, { description: 'The plan, and how to pay for it.' }) input: PlanCheckoutInput,
  ): Promise<PlanCheckoutNode> {
    const checkout = parse(PlanCheckout, input);
    const payment = await startPlanCheckout(ctx, checkout);
    const plan = ctx.runtime.config.plans.find((p) => p.id === payment.planId)!;
    return {
      id: payment.id,
      status: payment.status,
      plan: planNode(plan),
      amount: toMoney(payment.amountMinor, payment.currency),
      checkoutUrl: payment.status === 'requires_action' ? payment.nextActionUrl : null,
      failureCode: payment.failureCode ?? null,
    };
  }

  @Requires('merchant', 'account')
  @Mutation(() => PlanAndUsageNode, {
    description: 'Moves to a cheaper plan (free included) at the end of the paid time, or, naming the current plan, keeps it and drops a move chosen before.',
  })
  async changePlan(@Ctx() ctx: RequestContext, @Arg('plan', () => String, { description: 'The plan to move to.' }) plan: string): Promise<PlanAndUsageNode> {
    await changePlan(ctx, parse(PlanId, plan, 'plan'));
    return this.planAndUsage(ctx);
  }
}
