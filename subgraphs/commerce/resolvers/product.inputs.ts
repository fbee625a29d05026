/** The product tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { isUuid } from '../../kernel/ids.ts';
import { amount, clearableText, id, oneOf, slug, text, url, whole } from '../../kernel/schemas.ts';
import { PRODUCT_STATUSES } from '../entities/product.ts';
import type { StockChange } from '../services/inventory.ts';
import { MAX_STOCK, MAX_VARIANTS, type NewProduct as NewProductInput, type ProductChanges, type ProductListArgs } from '../services/products.ts';

export const ProductId = id('product');
export const VariantId = id('variant');
const CategoryId = id('product category');
const BrandId = id('brand');
const CollectionId = id('collection');

/** The storefront names a product by its slug, compared as slugify stores it. */
export const ProductSlug = slug();

const SKU = /^[\p{L}\p{N}._\-/]+$/u;
/** A stock-keeping unit; blank or null clears it. Unique in the shop (the service's index answers 409). */
const sku = clearableText(64).refine((v) => v == null || SKU.test(v), 'may hold letters, digits and . _ - / only');

/** Percent from 0 to 100 with at most 2 decimals, stored with two ("7.5" is "7.50"). */
const taxRate = amount()
  .refine((v) => /^\d{1,3}(\.\d{1,2})?$/.test(v) && Number(v) <= 100, 'must be a percentage from 0 to 100 with at most 2 decimals, e.g. "20" or "7.5"')
  .transform((v) => Number(v).toFixed(2));

const images = z.array(url(2000)).max(20, 'may hold at most 20 images');

/** Names JavaScript objects keep for themselves: never an option's name. */
const RESERVED = ['__proto__', 'constructor', 'prototype'];
/** A variant's options as a record ({ size: "M" }); each name once. */
const options = z.array(z.object({ name: text(50), value: text(100) })).transform((list, ctx) => {
  const out: Record<string, string> = {};
  list.forEach(({ name, value }, i) => {
    if (Object.hasOwn(out, name) || RESERVED.includes(name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'is given twice or reserved' });
    else out[name] = value;
  });
  return out;
});

/** Ids of the company's collections (which ones are the service's to check). */
const collectionIds = z.array(z.string()).refine((ids) => ids.every(isUuid), 'must be ids');

const variantFields = {
  name: clearableText(100),
  sku,
  price: amount().nullish(),
  compareAtPrice: amount().nullish(),
  stock: whole(0, MAX_STOCK).nullish(),
  trackInventory: z.boolean().nullish(),
  options: options.nullish(),
};

const productFields = {
  name: text(200).nullish(),
  // Checked against the table's other slugs by chooseSlug (kernel/slugs.ts): given as it is.
  slug: z.string().nullish(),
  description: clearableText(10_000),
  images: images.nullish(),
  categoryId: CategoryId.nullish(),
  brandId: BrandId.nullish(),
  collectionIds: collectionIds.nullish(),
  price: amount().nullish(),
  compareAtPrice: amount().nullish(),
  sku,
  trackInventory: z.boolean().nullish(),
  taxRate: taxRate.nullish(),
  status: oneOf(PRODUCT_STATUSES).nullish(),
};

/** A new product: a name, its default variant's stock, and variants that are all new. */
export const NewProduct = z.object({
  ...productFields,
  name: text(200),
  stock: whole(0, MAX_STOCK).nullish(),
  variants: z
    .array(z.object({ id: z.null({ error: 'is for update_product: a new product has no variants yet' }).optional(), ...variantFields }))
    .max(MAX_VARIANTS, `may hold at most ${MAX_VARIANTS} variants`)
    .nullish(),
  removeVariantIds: z.null({ error: 'is for update_product' }).optional(),
}) satisfies z.ZodType<NewProductInput>;

/** Changes: absent fields stay as they are. Stock is not among them: it changes through adjustStock, which keeps its history. */
export const ProductUpdate = z.object({
  ...productFields,
  variants: z.array(z.object({ id: VariantId.nullish(), ...variantFields })).nullish(),
  removeVariantIds: z.array(VariantId).nullish(),
}) satisfies z.ZodType<ProductChanges>;

/** The lists' filters; paging is checked with the page (kernel/pagination.ts). */
export const ProductFilter = z.object({
  search: z.string().nullish(),
  page: z.number().nullish(),
  limit: z.number().nullish(),
  offset: z.number().nullish(),
  status: oneOf(PRODUCT_STATUSES).nullish(),
  categoryId: CategoryId.nullish(),
  brandId: BrandId.nullish(),
  collectionId: CollectionId.nullish(),
}) satisfies z.ZodType<ProductListArgs>;

export const StockChangeInput = z.object({
  variantId: VariantId,
  delta: whole(-MAX_STOCK, MAX_STOCK).refine((d) => d !== 0, 'must not be 0'),
  reason: text(200),
}) satisfies z.ZodType<StockChange>;
