import { p } from '@mikro-orm/core';
import { companyIdColumn, tenantEntity } from '../../kernel/tenancy.ts';

/**
 * A company's earn rules (a company without a row has the defaults, services/rules.ts): points per
 * major currency unit of a paid order, per completed booking and per unit of its price, and how
 * many days earned points last (null: they never expire).
 */
export const LoyaltyRules = tenantEntity({
  name: 'LoyaltyRules',
  schema: 'loyalty',
  tableName: 'rules',
  properties: {
    companyId: companyIdColumn().primary(),
    pointsPerCurrencyUnit: p.decimal('string').precision(10).scale(2),
    pointsPerBooking: p.integer(),
    bookingPointsPerCurrencyUnit: p.decimal('string').precision(10).scale(2),
    expiryDays: p.integer().nullable(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  checks: [
    { name: 'rules_points_per_currency_unit_check', expression: 'points_per_currency_unit >= 0' },
    { name: 'rules_points_per_booking_check', expression: 'points_per_booking >= 0' },
    { name: 'rules_booking_points_per_currency_unit_check', expression: 'booking_points_per_currency_unit >= 0' },
    { name: 'rules_expiry_days_check', expression: 'expiry_days >= 1' },
  ],
});
export type LoyaltyRules = InstanceType<typeof LoyaltyRules.class>;
