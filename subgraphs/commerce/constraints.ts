import type { ConstraintTable } from '../kernel/constraints.ts';

const slugTaken = { code: 'CONFLICT', field: 'slug', message: 'This slug is already used' } as const;

/** The unique (company, slug) indexes of the catalog: a violation is a slug taken by a concurrent write. */
export const SLUG_CONSTRAINTS = ['product_slug_uniq', 'product_category_slug_uniq', 'brand_slug_uniq', 'collection_slug_uniq'];

/** What commerce's constraints mean to a client (names as in migrations/). */
export const commerceConstraints: ConstraintTable = {
  ...Object.fromEntries(SLUG_CONSTRAINTS.map((name) => [name, slugTaken])),
  product_variant_sku_uniq: { code: 'CONFLICT', field: 'sku', message: 'A variant with this SKU exists' },
  // Stock never goes below zero: a conditional update answers first, this is the last word.
  shipping_method_name_uniq: { code: 'CONFLICT', field: 'name', message: 'A shipping method with this name exists' },
  // Order numbers come from a per-company counter row; a clash means two numberings raced.
  shop_order_number_uniq: { code: 'CONFLICT', message: 'The order number is already used, try again' },
  promotion_code_uniq: { code: 'CONFLICT', field: 'code', message: 'A promotion with this code exists' },
  product_variant_stock_check: { code: 'CONFLICT', field: 'delta', message: 'Stock cannot go below zero' },
};
