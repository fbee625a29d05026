import { p } from '@mikro-orm/core';
import { companyIdColumn, tenantEntity } from '../../kernel/tenancy.ts';

/** Which customers the company has: kept from members' events by the kernel (kernel/customer-projection.ts, declared in ../services/customers.ts). */
export const LoyaltyCustomer = tenantEntity({
  name: 'LoyaltyCustomer',
  schema: 'loyalty',
  tableName: 'customer_projection',
  properties: {
    companyId: companyIdColumn().primary(),
    customerId: p.uuid().primary(),
    updatedAt: p.datetime(),
  },
});
export type LoyaltyCustomer = InstanceType<typeof LoyaltyCustomer.class>;
