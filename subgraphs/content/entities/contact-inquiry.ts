import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

/** A message sent to the business through the storefront's contact form. */
export const ContactInquiry = defineEntity({
  name: 'ContactInquiry',
  schema: 'content',
  tableName: 'contact_inquiry',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    message: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type ContactInquiry = InstanceType<typeof ContactInquiry.class>;
