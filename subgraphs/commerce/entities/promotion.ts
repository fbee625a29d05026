import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

export const PROMOTION_TYPES = ['percentage', 'fixed', 'free_shipping'] as const;
export type PromotionType = (typeof PROMOTION_TYPES)[number];

export const PROMOTION_CHANNELS = ['booking', 'online', 'pos'] as const;
export type PromotionChannel = (typeof PROMOTION_CHANNELS)[number];

/**
 * A promotion code of a company: a percentage off, a fixed amount off (in the company currency),
 * or free shipping, on the channels it is enabled for. `usedCount` counts the uses held by orders
 * (and bookings); it never passes `usageLimit` (a check constraint, and the conditional update
 * that takes a use). Codes are stored trimmed and upper-cased, unique per company.
 */
export const Promotion = tenantEntity({
  name: 'Promotion',
  schema: 'commerce',
  tableName: 'promotion',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    code: p.text(),
    description: p.text().nullable(),
    type: p.text().$type<PromotionType>(),
    /** percentage: percent off, "1.00" to "100.00". */
    percent: p.decimal('string').precision(5).scale(2).nullable(),
    /** fixed: the amount off, in minor units of `currency`. */
    amountMinor: p.bigint('number').nullable(),
    currency: p.character().length(3),
    bookingEnabled: p.boolean(),
    onlineEnabled: p.boolean(),
    posEnabled: p.boolean(),
    startsAt: p.datetime().nullable(),
    endsAt: p.datetime().nullable(),
    usageLimit: p.integer().nullable(),
    perCustomerLimit: p.integer().nullable(),
    minimumAmountMinor: p.bigint('number').nullable(),
    usedCount: p.integer(),
    active: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'promotion_code_uniq', properties: ['companyId', 'code'] }],
  indexes: [{ name: 'promotion_company_created_idx', properties: ['companyId', 'createdAt'] }],
  checks: [
    { name: 'promotion_type_check', expression: `type in (${PROMOTION_TYPES.map((t) => `'${t}'`).join(', ')})` },
    { name: 'promotion_percent_check', expression: 'percent >= 1 and percent <= 100' },
    { name: 'promotion_amount_minor_check', expression: 'amount_minor > 0' },
    { name: 'promotion_value_check', expression: "(type = 'percentage') = (percent is not null) and (type = 'fixed') = (amount_minor is not null)" },
    { name: 'promotion_usage_limit_check', expression: 'usage_limit >= 1' },
    { name: 'promotion_per_customer_limit_check', expression: 'per_customer_limit >= 1' },
    { name: 'promotion_minimum_amount_minor_check', expression: 'minimum_amount_minor >= 0' },
    { name: 'promotion_used_count_check', expression: 'used_count >= 0 and (usage_limit is null or used_count <= usage_limit)' },
    { name: 'promotion_period_check', expression: 'ends_at is null or starts_at is null or ends_at > starts_at' },
  ],
});
export type Promotion = InstanceType<typeof Promotion.class>;

/**
 * One use of a promotion by an order (or a booking): who used it (the customer's id, or the
 * guest's lower-cased email or phone) for `perCustomerLimit`, and the discount it gave. A
 * cancelled or expired order gives its use back (`releasedAt`).
 */
export const PromotionUsage = tenantEntity({
  name: 'PromotionUsage',
  schema: 'commerce',
  tableName: 'promotion_usage',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    promotionId: p.manyToOne(Promotion).mapToPk().deleteRule('cascade').deferMode('deferred'),
    channel: p.text().$type<PromotionChannel>(),
    orderId: p.uuid().nullable(),
    bookingId: p.uuid().nullable(),
    customerKey: p.text().nullable(),
    discountMinor: p.bigint('number'),
    createdAt: p.datetime().onCreate(() => new Date()),
    releasedAt: p.datetime().nullable(),
  },
  uniques: [
    // One use per order and per booking.
    {
      name: 'promotion_usage_order_uniq',
      expression: 'create unique index promotion_usage_order_uniq on commerce.promotion_usage (order_id) where order_id is not null',
    },
    {
      name: 'promotion_usage_booking_uniq',
      expression: 'create unique index promotion_usage_booking_uniq on commerce.promotion_usage (booking_id) where booking_id is not null',
    },
  ],
  indexes: [{ name: 'promotion_usage_customer_idx', properties: ['promotionId', 'customerKey'] }],
  checks: [
    { name: 'promotion_usage_channel_check', expression: "channel in ('booking', 'online', 'pos')" },
    { name: 'promotion_usage_discount_minor_check', expression: 'discount_minor >= 0' },
  ],
});
export type PromotionUsage = InstanceType<typeof PromotionUsage.class>;
