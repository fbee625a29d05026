import { p } from '@mikro-orm/core';
import { companyIdColumn, tenantEntity } from '../../kernel/tenancy.ts';

/**
 * A company's shop settings (a company without a row has the defaults, services/settings.ts):
 * whether catalog prices include tax, and how long an order waits for its payment.
 */
export const ShopSettings = tenantEntity({
  name: 'ShopSettings',
  schema: 'commerce',
  tableName: 'shop_settings',
  properties: {
    companyId: companyIdColumn().primary(),
    pricesIncludeTax: p.boolean(),
    paymentWindowMinutes: p.integer(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  checks: [{ name: 'shop_settings_payment_window_minutes_check', expression: 'payment_window_minutes >= 1 and payment_window_minutes <= 10080' }],
});
export type ShopSettings = InstanceType<typeof ShopSettings.class>;
