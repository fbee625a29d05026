import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

/** A company's customer (a "member" in the storefront's words). Email and phone are unique per company. */
export const Customer = defineEntity({
  name: 'Customer',
  schema: 'members',
  tableName: 'customer',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    lastName: p.string().nullable(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    source: p.string().nullable(),
    /** Answers to the company's extra registration fields. */
    attributes: p.json<Record<string, unknown>>().nullable(),
    emailVerifiedAt: p.datetime().nullable(),
    phoneVerifiedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Customer = InstanceType<typeof Customer.class>;
