/** A company's earn rules: read with their defaults, changed by set_loyalty_rules. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';

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
    ? { pointsPerCurrencyUnit: Number(row.pointsPerCurrencyUnit).toFixed(2), pointsPerBooking: row.pointsPerBooking, bookingPointsPerCurrencyUnit: Number(row.bookingPointsPerCurrencyUnit).toFixed(2), expiryDays: row.expiryDays ?? null }
    : DEFAULT_RULES;
}

function rate(field: string, value: string): string {
  const text = String(value).trim();
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(text)) throw badInput(field, 'must be a number of points from 0 to 999999.99, e.g. "1" or "0.5"');
  return Number(text).toFixed(2);
}

/** Changes the fields given; the others keep their value. `expiryDays: 0` makes points never expire. */
export async function setRules(ctx: RequestContext, input: { pointsPerCurrencyUnit?: string | null; pointsPerBooking?: number | null; bookingPointsPerCurrencyUnit?: string | null; expiryDays?: number | null }): Promise<Rules> {
  const next = { ...(await rulesOf(ctx)) };
  if (input.pointsPerCurrencyUnit != null) next.pointsPerCurrencyUnit = rate('pointsPerCurrencyUnit', input.pointsPerCurrencyUnit);
  if (input.bookingPointsPerCurrencyUnit != null) next.bookingPointsPerCurrencyUnit = rate('bookingPointsPerCurrencyUnit', input.bookingPointsPerCurrencyUnit);
  if (input.pointsPerBooking != null) {
    if (!Number.isInteger(input.pointsPerBooking) || input.pointsPerBooking < 0 || input.pointsPerBooking > 1_000_000) throw badInput('pointsPerBooking', 'must be a whole number from 0 to 1000000');
    next.pointsPerBooking = input.pointsPerBooking;
  }
  if (input.expiryDays != null) {
    if (!Number.isInteger(input.expiryDays) || input.expiryDays < 0 || input.expiryDays > 3650) throw badInput('expiryDays', 'must be 1 to 3650 days, or 0 for points that never expire');
    next.expiryDays = input.expiryDays === 0 ? null : input.expiryDays;
  }
  await ctx.transaction(async (tx) => {
    await tx.query
      .insertInto('loyalty.rules')
      .values({ pointsPerCurrencyUnit: next.pointsPerCurrencyUnit, pointsPerBooking: next.pointsPerBooking, bookingPointsPerCurrencyUnit: next.bookingPointsPerCurrencyUnit, expiryDays: next.expiryDays, updatedAt: tx.now() })
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
