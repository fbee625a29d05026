import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';
import { Brand } from './brand.ts';
import { ProductCategory } from './category.ts';

export const PRODUCT_STATUSES = ['draft', 'active', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/**
 * A product of the shop. Its price, SKU and stock live on its variants: a product always has at
 * least one, the default variant (`isDefault`), which holds them when it has no options.
 * Only `active` products are sold and shown on the storefront. Slugs are unique per company.
 */
export const Product = tenantEntity({
  name: 'Product',
  schema: 'commerce',
  tableName: 'product',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    slug: p.text(),
    description: p.text().nullable(),
    images: p.json<string[]>(),
    categoryId: p.manyToOne(ProductCategory).mapToPk().nullable().deleteRule('no action').deferMode('deferred'),
    brandId: p.manyToOne(Brand).mapToPk().nullable().deleteRule('no action').deferMode('deferred'),
    status: p.text().$type<ProductStatus>(),
    /** Percent, e.g. "20.00"; applied to every variant's price at checkout. */
    taxRate: p.decimal('string').precision(5).scale(2),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'product_slug_uniq', properties: ['companyId', 'slug'] }],
  indexes: [
    { name: 'product_company_idx', properties: ['companyId', 'status', 'createdAt'] },
    { name: 'product_category_idx', properties: ['categoryId'] },
  ],
  checks: [
    { name: 'product_status_check', expression: "status in ('draft', 'active', 'archived')" },
    { name: 'product_tax_rate_check', expression: 'tax_rate >= 0 and tax_rate <= 100' },
  ],
});
export type Product = InstanceType<typeof Product.class>;

/**
 * One sellable form of a product (a size, a colour) with its own price, SKU and stock. Stock is
 * what can still be sold: an order's reservation takes it off (services/stock.ts), so it never
 * goes below zero (a check constraint and conditional updates).
 */
export const ProductVariant = tenantEntity({
  name: 'ProductVariant',
  schema: 'commerce',
  tableName: 'product_variant',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    productId: p.manyToOne(Product).mapToPk().deleteRule('cascade').deferMode('deferred'),
    name: p.text().nullable(),
    sku: p.text().nullable(),
    priceMinor: p.bigint('number'),
    compareAtPriceMinor: p.bigint('number').nullable(),
    currency: p.character().length(3),
    stock: p.integer(),
    trackInventory: p.boolean(),
    isDefault: p.boolean(),
    /** The options that tell it apart, e.g. { "size": "M" }; empty for a default variant. */
    options: p.json<Record<string, string>>(),
    position: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [
    {
      name: 'product_variant_sku_uniq',
      expression: 'create unique index product_variant_sku_uniq on commerce.product_variant (company_id, lower(sku)) where sku is not null',
    },
    // One default variant per product at most.
    {
      name: 'product_variant_default_uniq',
      expression: 'create unique index product_variant_default_uniq on commerce.product_variant (product_id) where is_default',
    },
  ],
  indexes: [{ name: 'product_variant_product_idx', properties: ['productId', 'position'] }],
  checks: [
    { name: 'product_variant_price_minor_check', expression: 'price_minor >= 0' },
    { name: 'product_variant_compare_at_price_minor_check', expression: 'compare_at_price_minor >= 0' },
    { name: 'product_variant_stock_check', expression: 'stock >= 0' },
  ],
});
export type ProductVariant = InstanceType<typeof ProductVariant.class>;

/** One change of a variant's stock by the merchant (orders' reservations are on their lines). */
export const StockMovement = tenantEntity({
  name: 'StockMovement',
  schema: 'commerce',
  tableName: 'stock_movement',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    variantId: p.manyToOne(ProductVariant).mapToPk().deleteRule('cascade').deferMode('deferred'),
    delta: p.integer(),
    /** Stock after this change. */
    stockAfter: p.integer(),
    reason: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'stock_movement_variant_idx', properties: ['variantId', 'createdAt'] }],
  checks: [{ name: 'stock_movement_stock_after_check', expression: 'stock_after >= 0' }],
});
export type StockMovement = InstanceType<typeof StockMovement.class>;
