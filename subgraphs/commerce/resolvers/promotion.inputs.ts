/** The promotion tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { amount, clearableText, id, instant, oneOf, text, whole } from '../../kernel/schemas.ts';
import { PROMOTION_CHANNELS, PROMOTION_TYPES } from '../entities/promotion.ts';
import type { PromotionChanges, PromotionCheck } from '../services/promotions.ts';

export const PromotionId = id('promotion');

/** Codes are compared trimmed and upper-cased: "summer10 " is SUMMER10. */
const code = text(40)
  .transform((v) => v.toUpperCase())
  .refine((v) => /^[A-Z0-9][A-Z0-9_-]{1,39}$/.test(v), 'must be 2 to 40 letters, digits, - or _');
const limit = whole(1, 1_000_000).nullish();

export const NewPromotion = z.object({
  name: text(200),
  code,
  type: oneOf(PROMOTION_TYPES),
  value: z.string().nullish(),
  bookingEnabled: z.boolean(),
  onlineEnabled: z.boolean(),
  posEnabled: z.boolean(),
  startsAt: instant().nullish(),
  endsAt: instant().nullish(),
  usageLimit: limit,
  perCustomerLimit: limit,
  minimumAmount: amount().nullish(),
  description: clearableText(2000),
}) satisfies z.ZodType<PromotionChanges>;

/** Changes: every field optional; null clears an optional one and leaves a required one as it is. */
export const PromotionUpdate = NewPromotion.partial().extend({
  name: text(200).nullish(),
  code: code.nullish(),
  type: oneOf(PROMOTION_TYPES).nullish(),
  bookingEnabled: z.boolean().nullish(),
  onlineEnabled: z.boolean().nullish(),
  posEnabled: z.boolean().nullish(),
  active: z.boolean().nullish(),
}) satisfies z.ZodType<PromotionChanges>;

export const PromotionCheckInput = z.object({
  promotionCode: text(64).transform((v) => v.toUpperCase()),
  channel: oneOf(PROMOTION_CHANNELS),
  amount: amount(),
}) satisfies z.ZodType<PromotionCheck>;
