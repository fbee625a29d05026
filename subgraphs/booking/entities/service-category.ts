import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** A group of services (the catalogue's sections); names are unique per company, ignoring case. */
export const ServiceCategory = tenantEntity({
  name: 'ServiceCategory',
  schema: 'booking',
  tableName: 'service_category',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [
    { name: 'service_category_name_uniq', expression: 'create unique index service_category_name_uniq on booking.service_category (company_id, lower(name))' },
  ],
});
export type ServiceCategory = InstanceType<typeof ServiceCategory.class>;
