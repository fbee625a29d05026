import { defineEntity, p } from '@mikro-orm/core';
import { tenantFilter } from '../../kernel/tenancy.ts';

/**
 * What content knows of its company's customers: a projection kept from members' events
 * (`members.customer.*`, see ../subscriptions.ts), never members' table. It answers "is this id a
 * customer of this company?" (survey invitations) and holds their contact facts.
 */
export const CustomerProjection = defineEntity({
  name: 'CustomerProjection',
  schema: 'content',
  tableName: 'customer_projection',
  properties: {
    companyId: p.uuid().primary(),
    customerId: p.uuid().primary(),
    name: p.string(),
    lastName: p.string().nullable(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    emailVerified: p.boolean(),
    phoneVerified: p.boolean(),
    /** When the facts were true: the event's occurrence (or the customer's row at the backfill); older facts never overwrite newer ones. */
    updatedAt: p.datetime(),
  },
  filters: tenantFilter,
});
export type CustomerProjection = InstanceType<typeof CustomerProjection.class>;
