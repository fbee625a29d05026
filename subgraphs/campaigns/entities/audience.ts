import { p } from '@mikro-orm/core';
import { companyIdColumn, tenantEntity } from '../../kernel/tenancy.ts';

/**
 * What campaigns knows of a customer, kept from other subgraphs' events (../subscriptions.ts):
 * contact facts from members, the last booking from booking, paid orders from commerce, the tier
 * from loyalty; tags are the merchant's (tag_customers). Never another subgraph's table.
 */
export const AudienceMember = tenantEntity({
  name: 'AudienceMember',
  schema: 'campaigns',
  tableName: 'audience',
  properties: {
    companyId: companyIdColumn().primary(),
    customerId: p.uuid().primary(),
    firstName: p.text(),
    lastName: p.text().nullable(),
    email: p.text().nullable(),
    phone: p.text().nullable(),
    tags: p.array().columnType('text[]'),
    tierId: p.uuid().nullable(),
    tierName: p.text().nullable(),
    lastBookedAt: p.datetime().nullable(),
    ordersCount: p.integer(),
    /** Paid orders' totals less refunds, in major units of the orders' currency. */
    spent: p.decimal('string').precision(16).scale(3),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  indexes: [{ name: 'audience_tags_idx', expression: 'create index audience_tags_idx on campaigns.audience using gin (tags)' }],
  checks: [
    { name: 'audience_orders_count_check', expression: 'orders_count >= 0' },
    { name: 'audience_spent_check', expression: 'spent >= 0' },
  ],
});
export type AudienceMember = InstanceType<typeof AudienceMember.class>;

export const SUPPRESSION_REASONS = ['UNSUBSCRIBED', 'HARD_BOUNCE'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** A channel a customer is no longer sent to: they unsubscribed, or their address bounced hard. */
export const Suppression = tenantEntity({
  name: 'Suppression',
  schema: 'campaigns',
  tableName: 'suppression',
  properties: {
    companyId: companyIdColumn().primary(),
    customerId: p.uuid().primary(),
    channel: p.text().primary().$type<'email' | 'sms' | 'whatsapp'>(),
    reason: p.text().$type<SuppressionReason>(),
    detail: p.text().nullable(),
    createdAt: p.datetime(),
  },
  checks: [
    { name: 'suppression_channel_check', expression: "channel in ('email', 'sms', 'whatsapp')" },
    { name: 'suppression_reason_check', expression: "reason in ('UNSUBSCRIBED', 'HARD_BOUNCE')" },
  ],
});
export type Suppression = InstanceType<typeof Suppression.class>;
