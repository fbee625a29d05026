import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';
import { Product } from './product.ts';

/** A hand-picked set of products ("Summer sale"); a product may be in many. */
export const Collection = tenantEntity({
  name: 'Collection',
  schema: 'commerce',
  tableName: 'collection',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    slug: p.text(),
    description: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'collection_slug_uniq', properties: ['companyId', 'slug'] }],
});
export type Collection = InstanceType<typeof Collection.class>;

/** A product's membership of a collection. */
export const CollectionProduct = tenantEntity({
  name: 'CollectionProduct',
  schema: 'commerce',
  tableName: 'collection_product',
  properties: {
    collectionId: p.manyToOne(Collection).mapToPk().primary().deleteRule('cascade').updateRule('no action').deferMode('deferred'),
    productId: p.manyToOne(Product).mapToPk().primary().deleteRule('cascade').updateRule('no action').deferMode('deferred'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'collection_product_product_idx', properties: ['productId'] }],
});
export type CollectionProduct = InstanceType<typeof CollectionProduct.class>;
