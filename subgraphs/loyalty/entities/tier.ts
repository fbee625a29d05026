import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/**
 * A membership tier: reached by lifetime points earned (never the current balance, so spending
 * points never costs a tier). A customer's tier is the one with the highest threshold they reached.
 */
export const MembershipTier = tenantEntity({
  name: 'MembershipTier',
  schema: 'loyalty',
  tableName: 'membership_tier',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    threshold: p.integer(),
    benefits: p.json<string[]>(),
    sortOrder: p.integer(),
    color: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [
    { name: 'membership_tier_name_uniq', expression: 'create unique index membership_tier_name_uniq on loyalty.membership_tier (company_id, lower(name))' },
    { name: 'membership_tier_threshold_uniq', properties: ['companyId', 'threshold'] },
  ],
  checks: [{ name: 'membership_tier_threshold_check', expression: 'threshold >= 0' }],
});
export type MembershipTier = InstanceType<typeof MembershipTier.class>;
