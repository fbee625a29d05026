/** A company's earn rules: read with their defaults, changed by set_loyalty_rules. */
import type { RequestContext } from '../../kernel/context.ts';
import { applyChanges } from '../../kernel/inputs.ts';

export interface Rules {
  /** Points per major currency unit of a paid order ("1" = a point per euro). */
  pointsPerCurrencyUnit: string;
  /** Points for each completed booking. */
  pointsPerBooking: number;
  /** Points per major currency unit of a completed booking's amount due. */
  bookingPointsPerCurrencyUnit: string;
  /** How long earned points last; null: they never expire. */
  expiryDays: number | null;
}

export const DEFAULT_RULES: Rules = { pointsPerCurrencyUnit: '1.00', pointsPerBooking: 0, bookingPointsPerCurrencyUnit: '0.00', expiryDays: 365 };

export async function rulesOf(ctx: RequestContext): Promise<Rules> {
  const row = await ctx.first(ctx.query.selectFrom('loyalty.rules').selectAll());
  // Rates always with two decimals: the driver reads a numeric 0.00 back as "0" (seen through the REST/MCP write parity test).
  return row
    ? {
        pointsPerCurrencyUnit: Number(row.pointsPerCurrencyUnit).toFixed(2),
        pointsPerBooking: row.pointsPerBooking,
        bookingPointsPerCurrencyUnit: Number(row.bookingPointsPerCurrencyUnit).toFixed(2),
        expiryDays: row.expiryDays ?? null,
      }
    : DEFAULT_RULES;
}

/** Changes to the rules as the edge checked them (resolvers/loyalty.inputs.ts), rates with two decimals ("0.50"); absent means unchanged. */
export interface RulesChanges {
  pointsPerCurrencyUnit?: string | null;
  pointsPerBooking?: number | null;
  bookingPointsPerCurrencyUnit?: string | null;
  /** 0 makes points never expire. */
  expiryDays?: number | null;
}

/** Changes the fields given; the others keep their value. */
export async function setRules(ctx: RequestContext, input: RulesChanges): Promise<Rules> {
  const next = { ...(await rulesOf(ctx)) };
  applyChanges(next, input, { set: ['pointsPerCurrencyUnit', 'bookingPointsPerCurrencyUnit', 'pointsPerBooking'] });
  if (input.expiryDays != null) next.expiryDays = input.expiryDays === 0 ? null : input.expiryDays;
  await ctx.transaction(async (tx) => {
    await tx.query
      .insertInto('loyalty.rules')
      .values({
        pointsPerCurrencyUnit: next.pointsPerCurrencyUnit,
        pointsPerBooking: next.pointsPerBooking,
        bookingPointsPerCurrencyUnit: next.bookingPointsPerCurrencyUnit,
        expiryDays: next.expiryDays,
        updatedAt: tx.now(),
      })
      .onConflict((oc) =>
        oc.column('companyId').doUpdateSet((eb) => ({
          pointsPerCurrencyUnit: eb.ref('excluded.pointsPerCurrencyUnit'),
          pointsPerBooking: eb.ref('excluded.pointsPerBooking'),
          bookingPointsPerCurrencyUnit: eb.ref('excluded.bookingPointsPerCurrencyUnit'),
          expiryDays: eb.ref('excluded.expiryDays'),
          updatedAt: eb.ref('excluded.updatedAt'),
        })),
      )
      .execute();
  });
  return next;
}

/** Points for an amount in minor units at a rate per major unit, rounded down (no fractional points). */
export function pointsFor(amountMinor: number, digits: number, perUnit: string): number {
  const hundredths = BigInt(Math.round(Number(perUnit) * 100));
  return Number((BigInt(amountMinor) * hundredths) / (100n * 10n ** BigInt(digits)));
}
