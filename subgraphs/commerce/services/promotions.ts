/**
 * Promotion codes: defined by the merchant, validated for an amount and a channel, and taken by an
 * order (or a booking) in its own transaction. A use is taken by a conditional update of the
 * promotion's counter (never read-then-write), so concurrent orders never pass `usageLimit`; a
 * cancelled or expired order gives its use back. Taking and giving back are database functions
 * (migrations/0004), so booking takes a use in its own transaction without touching these tables.
 */
import { LockMode } from '@mikro-orm/core';
import { sql } from 'kysely';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound, promotionInvalid } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { parseAmount, toMoney } from '../../kernel/money.ts';
import { pageRequest } from '../../kernel/pagination.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { Promotion, type PromotionChannel, type PromotionType } from '../entities/promotion.ts';

export type PromotionRow = RowOf<'commerce.promotion'>;

/** Why a code does not apply, checked in this order. */
export const PROMOTION_ERROR_CODES = [
  'PROMOTION_NOT_FOUND',
  'INACTIVE',
  'NOT_STARTED',
  'EXPIRED',
  'CHANNEL_NOT_ENABLED',
  'MINIMUM_NOT_MET',
  'USAGE_LIMIT_REACHED',
  'CUSTOMER_LIMIT_REACHED',
] as const;
export type PromotionErrorCode = (typeof PROMOTION_ERROR_CODES)[number];

/** A promotion's fields as the edge checked them (resolvers/promotion.inputs.ts); on a change, absent means unchanged. */
export interface PromotionChanges {
  name?: string | null;
  code?: string | null;
  type?: PromotionType | null;
  /** percentage: percent off ("15"); fixed: an amount off in the company currency ("5.00"). */
  value?: string | null;
  bookingEnabled?: boolean | null;
  onlineEnabled?: boolean | null;
  posEnabled?: boolean | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  usageLimit?: number | null;
  perCustomerLimit?: number | null;
  minimumAmount?: string | null;
  description?: string | null;
  active?: boolean | null;
}

/** A code to check against an amount on a channel (upper-cased by the edge). */
export interface PromotionCheck {
  promotionCode: string;
  channel: PromotionChannel;
  amount: string;
}

/** The value of a type: percent off ("15", "12.5") or an amount off in the company currency. */
function valueOf(type: PromotionType, value: string | null | undefined, currency: string): { percent: string | null; amountMinor: number | null } {
  if (type === 'free_shipping') return { percent: null, amountMinor: null };
  if (value == null || value.trim() === '') throw badInput('value', `is required for a ${type} promotion`);
  if (type === 'percentage') {
    const text = value.trim();
    if (!/^\d{1,3}(\.\d{1,2})?$/.test(text) || Number(text) < 1 || Number(text) > 100)
      throw badInput('value', 'must be a percentage from 1 to 100 (at most 2 decimals), e.g. "15"');
    return { percent: Number(text).toFixed(2), amountMinor: null };
  }
  const amountMinor = parseAmount('value', value, currency);
  if (amountMinor <= 0) throw badInput('value', 'must be an amount above 0, e.g. "5.00"');
  return { percent: null, amountMinor };
}

/** The given fields, then the type with its value (in the company currency) and the rules across fields. */
function apply(promotion: Promotion, input: PromotionChanges, creating: boolean) {
  applyChanges(promotion, input, {
    set: ['name', 'code', 'bookingEnabled', 'onlineEnabled', 'posEnabled', 'active'],
    clearable: ['description', 'startsAt', 'endsAt', 'usageLimit', 'perCustomerLimit'],
  });
  const type = input.type ?? promotion.type;
  if (creating || input.type != null || input.value != null) {
    if (!creating && input.type != null && input.type !== promotion.type && input.value == null && type !== 'free_shipping')
      throw badInput('value', 'is required when the type changes');
    const value = valueOf(
      type,
      input.value ??
        (type === promotion.type
          ? (promotion.percent ?? (promotion.amountMinor != null ? toMoney(promotion.amountMinor, promotion.currency).amount : null))
          : null),
      promotion.currency,
    );
    promotion.type = type;
    promotion.percent = value.percent;
    promotion.amountMinor = value.amountMinor;
  }
  if (promotion.startsAt && promotion.endsAt && promotion.endsAt.getTime() <= promotion.startsAt.getTime()) throw badInput('endsAt', 'must be after startsAt');
  if (input.usageLimit != null && promotion.usageLimit != null && promotion.usageLimit < promotion.usedCount)
    throw badInput('usageLimit', `must be at least the ${promotion.usedCount} use(s) already taken`);
  if (input.minimumAmount !== undefined)
    promotion.minimumAmountMinor = input.minimumAmount == null ? null : parseAmount('minimumAmount', input.minimumAmount, promotion.currency);
  if (!promotion.bookingEnabled && !promotion.onlineEnabled && !promotion.posEnabled)
    throw badInput('bookingEnabled', 'at least one channel (booking, online, pos) must be enabled');
}

export async function createPromotion(ctx: RequestContext, input: PromotionChanges): Promise<Promotion> {
  const { currency } = await tenantSettings(ctx);
  return ctx.transaction(async (tx) => {
    const promotion = tx.em.create(Promotion, {
      id: newId(),
      name: '',
      code: '',
      description: null,
      type: 'percentage',
      percent: null,
      amountMinor: null,
      currency,
      bookingEnabled: false,
      onlineEnabled: false,
      posEnabled: false,
      startsAt: null,
      endsAt: null,
      usageLimit: null,
      perCustomerLimit: null,
      minimumAmountMinor: null,
      usedCount: 0,
      active: true,
    });
    apply(promotion, input, true);
    return promotion;
  });
}

async function lockPromotion(tx: RequestContext, promotionId: string): Promise<Promotion> {
  const promotion = await tx.em.findOne(Promotion, { id: promotionId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!promotion) throw notFound('Promotion');
  return promotion;
}

export async function updatePromotion(ctx: RequestContext, promotionId: string, input: PromotionChanges): Promise<Promotion> {
  return ctx.transaction(async (tx) => {
    const promotion = await lockPromotion(tx, promotionId);
    apply(promotion, input, false);
    return promotion;
  });
}

/** Takes a code out of use (existing orders keep their discount). Deactivating twice is harmless. */
export async function deactivatePromotion(ctx: RequestContext, promotionId: string): Promise<Promotion> {
  return ctx.transaction(async (tx) => {
    const promotion = await lockPromotion(tx, promotionId);
    promotion.active = false;
    return promotion;
  });
}

export async function getPromotion(ctx: RequestContext, promotionId: string): Promise<PromotionRow> {
  const promotion = await ctx.first(ctx.query.selectFrom('commerce.promotion').selectAll().where('id', '=', promotionId));
  if (!promotion) throw notFound('Promotion');
  return promotion;
}

export async function listPromotions(
  ctx: RequestContext,
  args: { active?: boolean | null; page?: number | null; limit?: number | null; offset?: number | null },
) {
  let select = ctx.query.selectFrom('commerce.promotion').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc');
  if (args.active != null) select = select.where('active', '=', args.active);
  return ctx.page(select, pageRequest(args));
}

// ---- Validation and use --------------------------------------------------------------------------

/** What `commerce.take_promotion` answers (its columns by their property names). */
interface Checked {
  errorCode: PromotionErrorCode | null;
  promotionId: string | null;
  promotionType: PromotionType | null;
  /** Off the amount, half up in minor units, never more than it; 0 for free shipping (off the shipping line instead). */
  discountMinor: string | number;
}

/**
 * `validate_promotion`: an answer for any code, valid or not (an invalid code is not an error).
 * The same checks as a use (commerce.take_promotion), as a dry run: nothing is used up.
 */
export async function validatePromotion(ctx: RequestContext, { promotionCode: code, channel, amount }: PromotionCheck) {
  const { currency } = await tenantSettings(ctx);
  const amountMinor = parseAmount('amount', amount, currency);
  const checked = (await ctx.first(
    ctx.query
      .selectFrom(
        sql<Checked>`commerce.take_promotion(${ctx.companyId}, ${code}, ${channel}, ${amountMinor}, ${null}, ${null}, ${null}, ${null}, ${0}, ${ctx.now()}, true)`.as(
          't',
        ),
      )
      .selectAll(),
  ))!;
  const promotion = checked.promotionId ? await ctx.first(ctx.query.selectFrom('commerce.promotion').selectAll().where('id', '=', checked.promotionId)) : null;
  return { isValid: checked.errorCode === null, discountAmount: toMoney(Number(checked.discountMinor), currency), errorCode: checked.errorCode, promotion };
}

export interface TakenPromotion {
  promotionId: string;
  type: PromotionType;
  /** Off the goods; 0 for free shipping, which zeroes the shipping line instead. */
  discountMinor: number;
}

/**
 * Takes one use of a code for an order, inside the order's transaction, through
 * `commerce.take_promotion` (migrations/0004: the checks validate_promotion reports, the per-customer limit,
 * the conditional update of the counter). Any refusal is 400 PROMOTION_INVALID with the
 * `errorCode`, and the order is not written.
 */
export async function takePromotion(
  tx: RequestContext,
  use: { code: string; channel: PromotionChannel; amountMinor: number; shippingMinor: number; customerKey: string | null; orderId: string },
): Promise<TakenPromotion> {
  const taken = await tx.query
    .selectFrom(
      sql<Checked>`commerce.take_promotion(${tx.companyId}, ${use.code}, ${use.channel}, ${use.amountMinor}, ${use.customerKey}, ${newId()}, ${use.orderId}, ${null}, ${use.shippingMinor}, ${tx.now()})`.as(
        't',
      ),
    )
    .selectAll()
    .executeTakeFirstOrThrow();
  if (taken.errorCode) throw promotionInvalid(taken.errorCode);
  return { promotionId: taken.promotionId!, type: taken.promotionType!, discountMinor: Number(taken.discountMinor) };
}

/** Gives back the use an order took (it was cancelled or expired), once. */
export async function releasePromotion(tx: RequestContext, orderId: string): Promise<void> {
  await tx.query.selectNoFrom(sql<number>`commerce.release_promotion(${tx.companyId}, ${orderId}, ${null}, ${tx.now()})`.as('released')).execute();
}
