import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

/** A person who performs services; their contact details are for the merchant. */
export const StaffMember = defineEntity({
  name: 'StaffMember',
  schema: 'booking',
  tableName: 'staff_member',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    title: p.string().nullable(),
    active: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type StaffMember = InstanceType<typeof StaffMember.class>;
