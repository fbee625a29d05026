import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** A person who performs services; their contact details are for the merchant. */
export const StaffMember = tenantEntity({
  name: 'StaffMember',
  schema: 'booking',
  tableName: 'staff_member',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    email: p.text().nullable(),
    phone: p.text().nullable(),
    title: p.text().nullable(),
    active: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'staff_member_company_idx', properties: ['companyId'] }],
});
export type StaffMember = InstanceType<typeof StaffMember.class>;
