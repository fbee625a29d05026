import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** A company's customer (a "member" in the storefront's words). Email and phone are unique per company. */
export const Customer = tenantEntity({
  name: 'Customer',
  schema: 'members',
  tableName: 'customer',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    lastName: p.text().nullable(),
    email: p.text().nullable(),
    phone: p.text().nullable(),
    source: p.text().nullable(),
    /** Answers to the company's extra registration fields. */
    attributes: p.json<Record<string, unknown>>().nullable(),
    emailVerifiedAt: p.datetime().nullable(),
    phoneVerifiedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [
    { name: 'customer_company_email_uniq', properties: ['companyId', 'email'], where: 'email is not null' },
    { name: 'customer_company_phone_uniq', properties: ['companyId', 'phone'], where: 'phone is not null' },
  ],
});
export type Customer = InstanceType<typeof Customer.class>;
