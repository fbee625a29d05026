/** The gift tools' and storefront routes' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { clearableText, id, instant, oneOf, text, whole } from '../../kernel/schemas.ts';
import { GIFT_STATUSES, REDEMPTION_STATUSES } from '../entities/gift.ts';
import { MAX_QUANTITY, type ClaimsToIssue, type GiftClaimRequest, type OfferChanges, type RedemptionQuery } from '../services/gifts.ts';

export const GiftOfferId = id('gift offer');
export const RedemptionId = id('redemption');

/** Changes: every field optional; null clears an optional one and leaves a required one as it is. */
export const GiftOfferUpdate = z.object({
  title: text(200).nullish(),
  description: clearableText(5000),
  imageUrl: clearableText(2000).refine((v) => v == null || /^https?:\/\/\S+$/i.test(v), 'must be an http(s) URL'),
  pointsCost: whole(0, 10_000_000).nullish(),
  stock: whole(0, 10_000_000).nullish(),
  limitPerCustomer: whole(1, 1000).nullish(),
  startsAt: instant().nullish(),
  endsAt: instant().nullish(),
  status: oneOf(GIFT_STATUSES).nullish(),
  minTierId: id('membership tier').nullish(),
}) satisfies z.ZodType<OfferChanges>;

export const NewGiftOffer = GiftOfferUpdate.extend({ title: text(200), pointsCost: whole(0, 10_000_000) }) satisfies z.ZodType<OfferChanges>;

/** How many of a gift to redeem (the service's default when left out: one). */
export const RedeemQuantity = whole(1, MAX_QUANTITY).nullish();

export const ClaimsToIssueInput = z
  .object({
    offerId: GiftOfferId,
    recipients: z.array(text(200)).max(500, 'may hold at most 500').nullish(),
    count: z.int().nullish(),
  })
  .superRefine(({ recipients, count }, ctx) => {
    // With recipients there is a claim for each, and count is not read.
    if (recipients?.length) return;
    if (count == null) ctx.addIssue({ code: 'custom', path: ['count'], message: 'or recipients is required' });
    else if (count < 1 || count > 500) ctx.addIssue({ code: 'custom', path: ['count'], message: 'must be a whole number from 1 to 500' });
  }) satisfies z.ZodType<ClaimsToIssue>;

/** With a claim token the gift is the token's: an offerId beside it is neither read nor checked. */
export const GiftClaimInput = z.preprocess(
  (v) => (v && typeof v === 'object' && 'claimToken' in v && v.claimToken ? { claimToken: v.claimToken } : v),
  z.object({ claimToken: z.string().nullish(), offerId: GiftOfferId.nullish() }),
) satisfies z.ZodType<GiftClaimRequest>;

/** The merchant's filters; the page arguments pass on as they came, to the page request every list checks. */
export const RedemptionFilter = z.looseObject({
  status: oneOf(REDEMPTION_STATUSES).nullish(),
  customerId: id('customer').nullish(),
  offerId: GiftOfferId.nullish(),
}) satisfies z.ZodType<RedemptionQuery>;

/** Codes are shown upper-case; the counter may type them in any case. */
export const RedemptionCode = text(20).transform((v) => v.toUpperCase());
