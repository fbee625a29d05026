import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** The maker of products; slugs are unique per company. */
export const Brand = tenantEntity({
  name: 'Brand',
  schema: 'commerce',
  tableName: 'brand',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    slug: p.text(),
    description: p.text().nullable(),
    logoUrl: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'brand_slug_uniq', properties: ['companyId', 'slug'] }],
});
export type Brand = InstanceType<typeof Brand.class>;
