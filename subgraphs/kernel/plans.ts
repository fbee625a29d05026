import { p } from '@mikro-orm/core';
import { sql, type QueryCreator } from 'kysely';
import type { RequestContext } from './context.ts';
import type { Database } from './database.ts';
import { AppError } from './errors.ts';
import { FREE_PLAN, METERS, planThatLifts, type Feature, type LimitName, type Meter, type PlanDefinition, type PlanLimits } from './plan-catalogue.ts';
import { systemQuery } from './query.ts';
import type { Tables } from './tables.ts';
import { companyIdColumn, tenantEntity } from './tenancy.ts';

/**
 * What plan a company is on and what it used: the plans are stored from configuration at every
 * start (`storePlans`); a company without a row in kernel.company_plan is on the free plan, whose
 * periods are calendar months (UTC); a paid plan runs from the payment that bought it for a month
 * at a time (`activatePaidPeriod`), and when its paid time ends the company is on the plan it
 * chose to move to, or the free one. Usage is counted per company, meter and period in
 * kernel.usage, each count exact under concurrency (one conditional upsert).
 */

/** The plan a company chose, when it chose one (no row: the free plan). */
export const CompanyPlan = tenantEntity({
  name: 'CompanyPlan',
  schema: 'kernel',
  tableName: 'company_plan',
  properties: {
    companyId: companyIdColumn().primary(),
    /** A plan id of the configuration (kernel.plan); not a foreign key: a plan may leave the configuration while a company is on it. */
    planId: p.text(),
    /** Periods are this instant plus whole months. */
    periodAnchor: p.datetime(),
    paidUntil: p.datetime().nullable(),
    nextPlanId: p.text().nullable(),
    updatedAt: p.datetime(),
  },
});

/** What a company used of a meter in one period. */
export const PlanUsage = tenantEntity({
  name: 'PlanUsage',
  schema: 'kernel',
  tableName: 'usage',
  properties: {
    companyId: companyIdColumn().primary(),
    meter: p.text().primary(),
    periodStart: p.datetime().primary(),
    used: p.bigint('number'),
  },
  checks: [{ name: 'usage_used_check', expression: 'used >= 0' }],
});

/** Writes the configured plans over the stored ones (every start: the operator's configuration wins). */
export async function storePlans(db: Database, plans: readonly PlanDefinition[]): Promise<void> {
  await systemQuery(db.orm.em)
    .insertInto('kernel.plan')
    .values(
      plans.map((plan, position) => ({
        id: plan.id,
        name: plan.name,
        priceMinor: plan.price.amountMinor,
        currency: plan.price.currency,
        features: plan.features,
        limits: JSON.stringify(plan.limits),
        position,
      })),
    )
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        priceMinor: eb.ref('excluded.priceMinor'),
        currency: eb.ref('excluded.currency'),
        features: eb.ref('excluded.features'),
        limits: eb.ref('excluded.limits'),
        position: eb.ref('excluded.position'),
      })),
    )
    .execute();
}

/**
 * One row: the plan the query's company (its tenant scope) is on at `now` (ISO 8601; `plan`, `features`,
 * `limits`) and the period `now` falls in (`periodStart`, `periodEnd`: the anchor plus whole
 * months), with what is scheduled (`paidUntil`, `nextPlan`). The router reads it inside its
 * metering statement; services through `planOf`.
 */
export function companyPlanQuery(q: QueryCreator<Tables>, now: string) {
  const at = sql<Date>`${now}::timestamptz`;
  // The company's choice, read once: one row whether or not it made one (none: the free plan, by calendar month).
  const chosen = q
    .selectFrom(sql<{ one: number }>`(select 1 as one)`.as('one'))
    .leftJoin('kernel.company_plan as c', (join) => join.onTrue())
    .select([
      sql<string>`case when c.plan_id is null then ${FREE_PLAN} when c.paid_until <= ${at} then coalesce(c.next_plan_id, ${FREE_PLAN}) else c.plan_id end`.as(
        'plan',
      ),
      sql<Date>`coalesce(c.period_anchor, date_trunc('month', ${at}, 'UTC'))`.as('anchor'),
      sql<Date | null>`case when c.paid_until > ${at} then c.paid_until end`.as('paidUntil'),
      sql<string | null>`case when c.paid_until > ${at} then c.next_plan_id end`.as('nextPlan'),
    ]);
  const months = sql<number>`(extract(year from age(${at}, chosen.anchor)) * 12 + extract(month from age(${at}, chosen.anchor)))::int`;
  return q
    .selectFrom(chosen.as('chosen'))
    .innerJoin('kernel.plan as p', 'p.id', 'chosen.plan')
    .select([
      'chosen.plan',
      'p.features',
      'p.limits',
      sql<Date>`chosen.anchor + make_interval(months => ${months})`.as('periodStart'),
      sql<Date>`chosen.anchor + make_interval(months => ${months} + 1)`.as('periodEnd'),
      'chosen.paidUntil',
      'chosen.nextPlan',
    ]);
}

export type CompanyPlanRow = Awaited<ReturnType<ReturnType<typeof companyPlanQuery>['executeTakeFirstOrThrow']>>;

export interface CurrentPlan {
  planId: string;
  features: Feature[];
  limits: PlanLimits;
  periodStart: Date;
  periodEnd: Date;
  /** Until when a paid plan is paid (the period's end), or null on the free plan. */
  paidUntil: Date | null;
  /** The plan the company chose to move to when the paid time ends; without one it returns to the free plan unless it buys another month. */
  nextPlanId: string | null;
}

export function toCurrentPlan(row: CompanyPlanRow): CurrentPlan {
  const limits = row.limits as PlanLimits | string;
  return {
    planId: row.plan,
    features: row.features as Feature[],
    limits: typeof limits === 'string' ? JSON.parse(limits) : limits,
    periodStart: new Date(row.periodStart),
    periodEnd: new Date(row.periodEnd),
    paidUntil: row.paidUntil ? new Date(row.paidUntil) : null,
    nextPlanId: row.nextPlan,
  };
}

/** The caller's company's plan now. */
export async function planOf(ctx: RequestContext): Promise<CurrentPlan> {
  return toCurrentPlan(await companyPlanQuery(ctx.query, ctx.now().toISOString()).executeTakeFirstOrThrow());
}

/**
 * 402 PLAN_LIMIT_REACHED: what was reached (`details.limit`: a limit's or a feature's name), the
 * plan the company is on and the plan that lifts it, when one does.
 */
export function planLimitReached(
  plans: readonly PlanDefinition[],
  planId: string,
  what: { feature: Feature } | { limit: LimitName; max: number },
  message: string,
): AppError {
  const lifts = planThatLifts(plans, planId, what);
  return new AppError('PLAN_LIMIT_REACHED', `${message}${lifts ? `; the ${lifts.name} plan (${lifts.id}) lifts it` : ''}`, {
    limit: 'feature' in what ? what.feature : what.limit,
    ...('max' in what ? { max: what.max } : {}),
    plan: planId,
    ...(lifts ? { upgradeTo: lifts.id } : {}),
  });
}

/** Refuses, with 402, what the company's plan does not include. */
export async function requireFeature(ctx: RequestContext, feature: Feature, what: string): Promise<void> {
  const plan = await planOf(ctx);
  if (!plan.features.includes(feature))
    throw planLimitReached(ctx.runtime.config.plans, plan.planId, { feature }, `${what} is not part of the ${plan.planId} plan`);
}

/**
 * Refuses, with 402, a count that would pass the plan's limit (`staffMembers`): `count` is what
 * there would be afterwards, counted inside `tx` after a lock on the company and the limit, so
 * two concurrent requests cannot both take the last place.
 */
export async function requireWithinLimit(tx: RequestContext, limit: LimitName, count: () => Promise<number>, what: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`plan-limit:${limit}:${tx.companyId}`}))`.execute(tx.query);
  const plan = await planOf(tx);
  const max = plan.limits[limit];
  if ((await count()) > max) throw planLimitReached(tx.runtime.config.plans, plan.planId, { limit, max }, `The ${plan.planId} plan allows ${max} ${what}`);
}

/**
 * Counts `amount` more of a meter in this period, or refuses (402) when that would pass the plan's
 * limit and counts nothing. One conditional upsert: exact however many run at once.
 */
export async function consumeQuota(ctx: RequestContext, meter: Meter, amount: number, what: string): Promise<void> {
  const plan = await planOf(ctx);
  const limit = METERS[meter];
  const max = plan.limits[limit];
  const counted =
    amount <= max &&
    (
      await ctx.query
        .insertInto('kernel.usage')
        .values({ meter, periodStart: plan.periodStart, used: amount })
        .onConflict((oc) =>
          oc
            .columns(['companyId', 'meter', 'periodStart'])
            .doUpdateSet((eb) => ({ used: eb('kernel.usage.used', '+', amount) }))
            .where((eb) => eb(eb('kernel.usage.used', '+', amount), '<=', max)),
        )
        .returning('used')
        .execute()
    ).length > 0;
  if (!counted)
    throw planLimitReached(
      ctx.runtime.config.plans,
      plan.planId,
      { limit, max },
      `The ${plan.planId} plan allows ${max} ${what} a month, and this would pass it`,
    );
}

/** What the company used of each meter in the period that starts at `periodStart`. */
export async function usageIn(ctx: RequestContext, periodStart: Date): Promise<Record<Meter, number>> {
  const rows = await ctx.all(ctx.query.selectFrom('kernel.usage').select(['meter', 'used']).where('periodStart', '=', periodStart));
  const used = Object.fromEntries(Object.keys(METERS).map((meter) => [meter, 0])) as Record<Meter, number>;
  for (const row of rows) if (row.meter in used) used[row.meter as Meter] = Number(row.used);
  return used;
}

/**
 * A paid month of `planId` begins, or one more is added to it (inside the payment's transaction):
 * a company coming from another plan starts a new period now; one already on it keeps its periods
 * and is paid a month further. A change scheduled before is dropped: the company paid to stay.
 */
export async function activatePaidPeriod(tx: RequestContext, planId: string): Promise<void> {
  const now = tx.now();
  const current = await planOf(tx);
  const renewing = current.planId === planId && current.paidUntil;
  const anchor = renewing ? null : now;
  const paidUntil = sql<Date>`${renewing ? current.paidUntil : now}::timestamptz + interval '1 month'`;
  await tx.query
    .insertInto('kernel.company_plan')
    .values({ planId, periodAnchor: anchor ?? current.periodStart, paidUntil, nextPlanId: null, updatedAt: now })
    .onConflict((oc) =>
      oc.column('companyId').doUpdateSet((eb) => ({
        planId: eb.ref('excluded.planId'),
        periodAnchor: anchor ? eb.ref('excluded.periodAnchor') : eb.ref('kernel.company_plan.periodAnchor'),
        paidUntil: eb.ref('excluded.paidUntil'),
        nextPlanId: null,
        updatedAt: eb.ref('excluded.updatedAt'),
      })),
    )
    .execute();
}

/**
 * When the paid time ends, the company moves to `planId` (a downgrade, taking effect at the
 * period's end), or, with null, the scheduled move is dropped. Answers whether a paid time was running.
 */
export async function scheduleMove(tx: RequestContext, planId: string | null): Promise<boolean> {
  const moved = await tx.query
    .updateTable('kernel.company_plan')
    .set({ nextPlanId: planId, updatedAt: tx.now() })
    .where('paidUntil', '>', tx.now())
    .returning('companyId')
    .execute();
  return moved.length > 0;
}
