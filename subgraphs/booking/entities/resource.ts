import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** A room or piece of equipment a service uses. */
export const Resource = tenantEntity({
  name: 'Resource',
  schema: 'booking',
  tableName: 'resource',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    type: p.text(),
    active: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'resource_company_idx', properties: ['companyId'] }],
});
export type Resource = InstanceType<typeof Resource.class>;
