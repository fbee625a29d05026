/** The loyalty tools' inputs (rules, tiers, points by hand), checked and normalised before the service sees them. */
import { z } from 'zod';
import { clearableText, id, text, whole } from '../../kernel/schemas.ts';
import type { PointsAdjustment } from '../services/accounts.ts';
import type { RulesChanges } from '../services/rules.ts';
import type { TierChanges } from '../services/tiers.ts';

/** A whole number from `min` to `max`, with its own wording of what it means. */
const bounded = (min: number, max: number, message: string) => z.int(message).min(min, message).max(max, message);

/** Kept lower-case, as the ledger and the projection hold them. */
export const CustomerId = id('customer').transform((v) => v.toLowerCase());
export const TierId = id('tier');

/** Points per major currency unit, kept with two decimals ("1" is "1.00"). */
const rate = z
  .string()
  .transform((v) => v.trim())
  .refine((v) => /^\d{1,6}(\.\d{1,2})?$/.test(v), 'must be a number of points from 0 to 999999.99, e.g. "1" or "0.5"')
  .transform((v) => Number(v).toFixed(2));

export const RulesUpdate = z.object({
  pointsPerCurrencyUnit: rate.nullish(),
  bookingPointsPerCurrencyUnit: rate.nullish(),
  pointsPerBooking: whole(0, 1_000_000).nullish(),
  expiryDays: bounded(0, 3650, 'must be 1 to 3650 days, or 0 for points that never expire').nullish(),
}) satisfies z.ZodType<RulesChanges>;

const threshold = bounded(0, 100_000_000, 'must be a whole number of lifetime points from 0 to 100000000');

/** Changes: every field optional; null clears the colour and leaves the others as they are. */
export const TierUpdate = z.object({
  name: text(100).nullish(),
  threshold: threshold.nullish(),
  benefits: z.array(text(200)).max(20, 'may hold at most 20 lines').nullish(),
  sortOrder: whole(0, 10_000).nullish(),
  color: clearableText(7)
    .refine((v) => v == null || /^#[0-9a-fA-F]{6}$/.test(v), 'must be a hex colour such as "#C0A060"')
    .transform((v) => (v == null ? v : v.toUpperCase())),
}) satisfies z.ZodType<TierChanges>;

export const NewTier = TierUpdate.extend({ name: text(100), threshold }) satisfies z.ZodType<TierChanges>;

const POINTS = 'must be a whole number of points, not 0, between -10000000 and 10000000';

export const PointsAdjustmentInput = z.object({
  customerId: CustomerId,
  points: bounded(-10_000_000, 10_000_000, POINTS).refine((v) => v !== 0, POINTS),
  reason: text(500),
}) satisfies z.ZodType<PointsAdjustment>;
