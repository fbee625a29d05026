import { p } from '@mikro-orm/core';
import { companyIdColumn, tenantEntity } from '../../kernel/tenancy.ts';

/**
 * What commerce knows of its company's customers: a projection kept from members' events by the
 * kernel (kernel/customer-projection.ts, declared in ../services/customers.ts). It answers "is this
 * accountId a customer of this company?" (create_shop_order) and holds their contact facts for
 * order messages.
 */
export const CommerceCustomer = tenantEntity({
  name: 'CommerceCustomer',
  schema: 'commerce',
  tableName: 'customer_projection',
  properties: {
    companyId: companyIdColumn().primary(),
    customerId: p.uuid().primary(),
    name: p.text(),
    lastName: p.text().nullable(),
    email: p.text().nullable(),
    phone: p.text().nullable(),
    /** When the facts were true; older facts never overwrite newer ones. */
    updatedAt: p.datetime(),
  },
});
export type CommerceCustomer = InstanceType<typeof CommerceCustomer.class>;
