import { p } from '@mikro-orm/core';
import { companyIdColumn, tenantEntity } from '../../kernel/tenancy.ts';

/**
 * What content knows of its company's customers: a projection kept from members' events by the
 * kernel (kernel/customer-projection.ts, declared in ../services/customers.ts). It answers "is this
 * id a customer of this company?" (survey invitations) and holds their contact facts.
 */
export const CustomerProjection = tenantEntity({
  name: 'CustomerProjection',
  schema: 'content',
  tableName: 'customer_projection',
  properties: {
    companyId: companyIdColumn().primary(),
    customerId: p.uuid().primary(),
    name: p.text(),
    lastName: p.text().nullable(),
    email: p.text().nullable(),
    phone: p.text().nullable(),
    emailVerified: p.boolean(),
    phoneVerified: p.boolean(),
    /** When the facts were true: the event's occurrence (or the customer's row at the backfill); older facts never overwrite newer ones. */
    updatedAt: p.datetime(),
  },
});
export type CustomerProjection = InstanceType<typeof CustomerProjection.class>;
