import { p } from '@mikro-orm/core';
import { companyIdColumn, tenantEntity } from '../../kernel/tenancy.ts';

/** The customers messaging knows, by their addresses: kept from members' events (kernel/customer-projection.ts, declared in ../services/customers.ts). */
export const MessagingCustomer = tenantEntity({
  name: 'MessagingCustomer',
  schema: 'messaging',
  tableName: 'customer_projection',
  properties: {
    companyId: companyIdColumn().primary(),
    customerId: p.uuid().primary(),
    firstName: p.text().nullable(),
    lastName: p.text().nullable(),
    email: p.text().nullable(),
    phone: p.text().nullable(),
    updatedAt: p.datetime(),
  },
  indexes: [
    { name: 'customer_projection_phone_idx', properties: ['companyId', 'phone'] },
    { name: 'customer_projection_email_idx', properties: ['companyId', 'email'] },
  ],
});
export type MessagingCustomer = InstanceType<typeof MessagingCustomer.class>;
