import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

/** A category of posts; its slug is unique per company. */
export const ContentCategory = defineEntity({
  name: 'ContentCategory',
  schema: 'content',
  tableName: 'category',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    slug: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type ContentCategory = InstanceType<typeof ContentCategory.class>;
