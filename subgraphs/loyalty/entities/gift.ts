import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';
import { MembershipTier } from './tier.ts';

export const GIFT_STATUSES = ['draft', 'active', 'archived'] as const;
export type GiftStatus = (typeof GIFT_STATUSES)[number];
export const REDEMPTION_STATUSES = ['ISSUED', 'USED', 'CANCELLED'] as const;
export type RedemptionStatus = (typeof REDEMPTION_STATUSES)[number];

/**
 * A gift customers redeem for points (or claim free, with a token or when it costs 0 points).
 * `stock` null is unlimited; taken by a conditional update, so it never goes below zero.
 */
export const GiftOffer = tenantEntity({
  name: 'GiftOffer',
  schema: 'loyalty',
  tableName: 'gift_offer',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    title: p.text(),
    description: p.text().nullable(),
    imageUrl: p.text().nullable(),
    pointsCost: p.integer(),
    stock: p.integer().nullable(),
    limitPerCustomer: p.integer().nullable(),
    startsAt: p.datetime().nullable(),
    endsAt: p.datetime().nullable(),
    minTierId: p.manyToOne(MembershipTier).mapToPk().nullable().deleteRule('no action').deferMode('deferred'),
    status: p.text().$type<GiftStatus>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ name: 'gift_offer_company_idx', properties: ['companyId', 'status', 'createdAt'] }],
  checks: [
    { name: 'gift_offer_points_cost_check', expression: 'points_cost >= 0' },
    { name: 'gift_offer_stock_check', expression: 'stock >= 0' },
    { name: 'gift_offer_limit_per_customer_check', expression: 'limit_per_customer >= 1' },
    { name: 'gift_offer_status_check', expression: `status in (${GIFT_STATUSES.map((s) => `'${s}'`).join(', ')})` },
  ],
});
export type GiftOffer = InstanceType<typeof GiftOffer.class>;

/** A gift given: the code the customer shows at the counter, until it is used or cancelled. */
export const Redemption = tenantEntity({
  name: 'Redemption',
  schema: 'loyalty',
  tableName: 'redemption',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    offerId: p.manyToOne(GiftOffer).mapToPk().deleteRule('no action').deferMode('deferred'),
    customerId: p.uuid().nullable(),
    quantity: p.integer(),
    /** Points it cost in all (0 for a claim). */
    points: p.integer(),
    code: p.text(),
    status: p.text().$type<RedemptionStatus>(),
    claimId: p.uuid().nullable(),
    createdAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    cancelledAt: p.datetime().nullable(),
  },
  uniques: [{ name: 'redemption_code_uniq', properties: ['companyId', 'code'] }],
  indexes: [
    { name: 'redemption_customer_idx', properties: ['companyId', 'customerId', 'createdAt'] },
    { name: 'redemption_offer_idx', properties: ['offerId', 'customerId'] },
  ],
  checks: [
    { name: 'redemption_quantity_check', expression: 'quantity >= 1 and quantity <= 10' },
    { name: 'redemption_points_check', expression: 'points >= 0' },
    { name: 'redemption_status_check', expression: `status in (${REDEMPTION_STATUSES.map((s) => `'${s}'`).join(', ')})` },
  ],
});
export type Redemption = InstanceType<typeof Redemption.class>;

/** A single-use link to claim a gift free (only its hash is kept), valid 30 days. */
export const GiftClaim = tenantEntity({
  name: 'GiftClaim',
  schema: 'loyalty',
  tableName: 'gift_claim',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    offerId: p.manyToOne(GiftOffer).mapToPk().deleteRule('no action').deferMode('deferred'),
    tokenHash: p.text(),
    /** Who it was issued for (an email, phone or customer id), when given. */
    recipient: p.text().nullable(),
    expiresAt: p.datetime(),
    claimedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
  uniques: [{ name: 'gift_claim_token_uniq', properties: ['tokenHash'] }],
});
export type GiftClaim = InstanceType<typeof GiftClaim.class>;
