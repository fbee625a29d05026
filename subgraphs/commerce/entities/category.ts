import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** A section of the shop; categories nest (parentId). Slugs are unique per company. */
export const ProductCategory = tenantEntity({
  name: 'ProductCategory',
  schema: 'commerce',
  tableName: 'product_category',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    slug: p.text(),
    description: p.text().nullable(),
    // By name: the entity cannot name itself in its own initializer (MikroORM resolves names too).
    parentId: p
      .manyToOne('ProductCategory' as unknown as { '~entity': { id: string } })
      .mapToPk()
      .nullable()
      .deleteRule('no action')
      .deferMode('deferred'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'product_category_slug_uniq', properties: ['companyId', 'slug'] }],
});
export type ProductCategory = InstanceType<typeof ProductCategory.class>;
