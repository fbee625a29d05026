import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** A category of posts; its slug is unique per company. */
export const ContentCategory = tenantEntity({
  name: 'ContentCategory',
  schema: 'content',
  tableName: 'category',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    slug: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'category_company_id_slug_key', properties: ['companyId', 'slug'] }],
});
export type ContentCategory = InstanceType<typeof ContentCategory.class>;
