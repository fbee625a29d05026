import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** A message sent to the business through the storefront's contact form. */
export const ContactInquiry = tenantEntity({
  name: 'ContactInquiry',
  schema: 'content',
  tableName: 'contact_inquiry',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    email: p.text().nullable(),
    phone: p.text().nullable(),
    message: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'contact_inquiry_company_idx', columns: [{ name: 'company_id' }, { name: 'created_at', sort: 'desc' }] }],
});
export type ContactInquiry = InstanceType<typeof ContactInquiry.class>;
