/** Products and their variants: define and change them, find and list them. */
import { perKey } from '../../kernel/batches.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { parseAmount } from '../../kernel/money.ts';
import { requireOwn, requireOwnAll } from '../../kernel/ownership.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { oneOf, optionalText, requireText } from '../../kernel/validation.ts';
import { CollectionProduct } from '../entities/collection.ts';
import { Product, PRODUCT_STATUSES, ProductVariant, type ProductStatus } from '../entities/product.ts';

export type ProductRow = RowOf<'commerce.product'>;
export type VariantRow = RowOf<'commerce.product_variant'>;

export const MAX_STOCK = 1_000_000;
export const MAX_VARIANTS = 100;

export interface VariantInput {
  /** update only: the variant to change. */
  id?: string | null;
  name?: string | null;
  sku?: string | null;
  price?: string | null;
  compareAtPrice?: string | null;
  stock?: number | null;
  trackInventory?: boolean | null;
  options?: { name: string; value: string }[] | null;
}

export interface ProductInput {
  name?: string | null;
  slug?: string | null;
  description?: string | null;
  images?: string[] | null;
  categoryId?: string | null;
  brandId?: string | null;
  collectionIds?: string[] | null;
  price?: string | null;
  compareAtPrice?: string | null;
  sku?: string | null;
  stock?: number | null;
  trackInventory?: boolean | null;
  taxRate?: string | null;
  status?: ProductStatus | null;
  variants?: VariantInput[] | null;
  removeVariantIds?: string[] | null;
}

export function wholeNumber(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw badInput(field, `must be a whole number from ${min} to ${max}`);
  return value;
}

function taxRateOf(value: string): string {
  const text = String(value).trim();
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match || Number(text) > 100) throw badInput('taxRate', 'must be a percentage from 0 to 100 with at most 2 decimals, e.g. "20" or "7.5"');
  return Number(text).toFixed(2);
}

function skuOf(field: string, value: unknown): string | null {
  const sku = optionalText(field, value, 64);
  if (sku && !/^[\p{L}\p{N}._\-/]+$/u.test(sku)) throw badInput(field, 'may hold letters, digits and . _ - / only');
  return sku ?? null;
}

function imagesOf(value: string[]): string[] {
  if (value.length > 20) throw badInput('images', 'may hold at most 20 images');
  value.forEach((url, i) => {
    if (typeof url !== 'string' || url.length > 2000 || !/^https?:\/\/\S+$/i.test(url)) throw badInput(`images[${i}]`, 'must be an http(s) URL');
  });
  return value;
}

function optionsOf(field: string, options: VariantInput['options']): Record<string, string> {
  const out: Record<string, string> = {};
  (options ?? []).forEach((o, i) => {
    const name = requireText(`${field}[${i}].name`, o.name, 50);
    if (Object.hasOwn(out, name) || ['__proto__', 'constructor', 'prototype'].includes(name)) throw badInput(`${field}[${i}].name`, 'is given twice or reserved');
    out[name] = requireText(`${field}[${i}].value`, o.value, 100);
  });
  return out;
}

/** Validated prices of a create or update: a compare-at price is above the price it compares with. */
function prices(field: string, input: { price?: string | null; compareAtPrice?: string | null }, currency: string, fallbackMinor?: number) {
  const priceMinor = input.price != null ? parseAmount(`${field}price`, input.price, currency) : fallbackMinor;
  const compareAtPriceMinor = input.compareAtPrice != null ? parseAmount(`${field}compareAtPrice`, input.compareAtPrice, currency) : null;
  if (compareAtPriceMinor != null && priceMinor != null && compareAtPriceMinor <= priceMinor) throw badInput(`${field}compareAtPrice`, 'must be above the price');
  return { priceMinor, compareAtPriceMinor };
}

async function applyProduct(tx: RequestContext, product: Product, input: ProductInput) {
  if (input.name != null) product.name = requireText('name', input.name, 200);
  if (input.description !== undefined) product.description = optionalText('description', input.description, 10_000) ?? null;
  if (input.images != null) product.images = imagesOf(input.images);
  if (input.taxRate != null) product.taxRate = taxRateOf(input.taxRate);
  if (input.status != null) product.status = oneOf('status', input.status, PRODUCT_STATUSES);
  if (input.categoryId !== undefined) product.categoryId = input.categoryId === null ? null : await requireOwn(tx, 'commerce.product_category', 'categoryId', input.categoryId, 'a product category');
  if (input.brandId !== undefined) product.brandId = input.brandId === null ? null : await requireOwn(tx, 'commerce.brand', 'brandId', input.brandId, 'a brand');
  if (input.collectionIds != null) {
    const ids = await requireOwnAll(tx, 'commerce.collection', 'collectionIds', input.collectionIds, 'collections');
    tx.em.remove(await tx.em.find(CollectionProduct, { productId: product.id }));
    for (const collectionId of ids) tx.em.create(CollectionProduct, { collectionId, productId: product.id });
  }
}

/**
 * Creates a product with its variants. Without `variants`, one default variant takes the
 * product's price, SKU, stock and inventory tracking; with them, the first is the default.
 */
export async function createProduct(ctx: RequestContext, input: ProductInput, currency: string) {
  const name = requireText('name', input.name, 200);
  const variants = input.variants?.length ? input.variants : null;
  if (variants && variants.length > MAX_VARIANTS) throw badInput('variants', `may hold at most ${MAX_VARIANTS} variants`);
  const given = variants?.findIndex((v) => v.id != null) ?? -1;
  if (given >= 0) throw badInput(`variants[${given}].id`, 'is for update_product: a new product has no variants yet');
  if (input.removeVariantIds != null) throw badInput('removeVariantIds', 'is for update_product');
  if (!variants && input.price == null) throw badInput('price', 'is required');
  const base = prices('', input, currency);
  return ctx.transaction(async (tx) => {
    const product = tx.em.create(Product, { id: newId(), name, slug: await chooseSlug(tx, 'commerce.product', { explicit: input.slug, text: name, fallback: 'item' }), images: [], status: 'draft', taxRate: '0.00' });
    await applyProduct(tx, product, input);
    const made = (variants ?? [{ sku: input.sku, stock: input.stock, trackInventory: input.trackInventory }]).map((v, i) => {
      const field = variants ? `variants[${i}].` : '';
      const own = variants ? prices(field, v, currency, base.priceMinor) : base;
      if (own.priceMinor == null) throw badInput(`${field}price`, 'is required (or give the product a price)');
      return tx.em.create(ProductVariant, {
        id: newId(),
        productId: product.id,
        name: variants ? (optionalText(`${field}name`, v.name, 100) ?? null) : null,
        sku: skuOf(`${field}sku`, v.sku),
        priceMinor: own.priceMinor,
        compareAtPriceMinor: own.compareAtPriceMinor ?? (variants ? base.compareAtPriceMinor : null),
        currency,
        stock: v.stock == null ? 0 : wholeNumber(`${field}stock`, v.stock, 0, MAX_STOCK),
        trackInventory: v.trackInventory ?? input.trackInventory ?? v.stock != null,
        isDefault: i === 0,
        options: variants ? optionsOf(`${field}options`, v.options) : {},
        position: i,
      });
    });
    const skus = made.map((v) => v.sku?.toLowerCase()).filter(Boolean);
    const dup = skus.findIndex((s, i) => skus.indexOf(s) !== i);
    if (dup >= 0) throw badInput(variants ? `variants[${dup}].sku` : 'sku', 'is given twice');
    return product;
  });
}

/**
 * Changes the given fields. Price, compare-at price, SKU and inventory tracking change the
 * default variant, `variants` and `removeVariantIds` the others (changeVariants); stock changes
 * only through adjustStock (it keeps a history).
 */
export async function updateProduct(ctx: RequestContext, productId: string, input: ProductInput) {
  if (!isUuid(productId)) throw badInput('productId', 'must be a product id');
  return ctx.transaction(async (tx) => {
    const product = await tx.em.findOne(Product, { id: productId });
    if (!product) throw notFound('Product');
    if (input.slug != null) product.slug = await chooseSlug(tx, 'commerce.product', { explicit: input.slug, text: input.name ?? product.name, fallback: 'item', exceptId: product.id });
    await applyProduct(tx, product, input);
    if (input.variants != null || input.removeVariantIds != null) await changeVariants(tx, product.id, input.variants ?? [], input.removeVariantIds ?? []);
    if (input.price != null || input.compareAtPrice !== undefined || input.sku !== undefined || input.trackInventory != null) {
      const variant = await tx.em.findOneOrFail(ProductVariant, { productId, isDefault: true });
      const p = prices('', input, variant.currency, variant.priceMinor);
      variant.priceMinor = p.priceMinor!;
      if (input.compareAtPrice !== undefined) variant.compareAtPriceMinor = p.compareAtPriceMinor;
      if (variant.compareAtPriceMinor != null && variant.compareAtPriceMinor <= variant.priceMinor) throw badInput('compareAtPrice', 'must be above the price');
      if (input.sku !== undefined) variant.sku = skuOf('sku', input.sku);
      if (input.trackInventory != null) variant.trackInventory = input.trackInventory;
    }
    return product;
  });
}

/**
 * update_product's `variants` and `removeVariantIds`: a variant with an id changes (only the
 * fields given), one without is added after the others; removed ones go (never the last). When
 * the default variant is removed, the first one left becomes the default.
 */
async function changeVariants(tx: RequestContext, productId: string, changes: VariantInput[], removeIds: string[]) {
  const existing = await tx.em.find(ProductVariant, { productId }, { orderBy: { position: 'asc' } });
  const byId = new Map(existing.map((v) => [v.id, v]));
  removeIds.forEach((id, i) => {
    if (!byId.has(id)) throw badInput(`removeVariantIds[${i}]`, 'is not a variant of this product');
  });
  const removing = new Set(removeIds);
  const added = changes.filter((v) => v.id == null).length;
  if (existing.length - removing.size + added > MAX_VARIANTS) throw badInput('variants', `a product may have at most ${MAX_VARIANTS} variants`);
  if (existing.length - removing.size + added < 1) throw badInput('removeVariantIds', 'a product keeps at least one variant');
  const currency = existing[0].currency;
  let position = Math.max(...existing.map((v) => v.position)) + 1;
  changes.forEach((v, i) => {
    const field = `variants[${i}].`;
    if (v.id == null) {
      const own = prices(field, v, currency);
      if (own.priceMinor == null) throw badInput(`${field}price`, 'is required for a new variant');
      tx.em.create(ProductVariant, {
        id: newId(),
        productId,
        name: optionalText(`${field}name`, v.name, 100) ?? null,
        sku: skuOf(`${field}sku`, v.sku),
        priceMinor: own.priceMinor,
        compareAtPriceMinor: own.compareAtPriceMinor,
        currency,
        stock: v.stock == null ? 0 : wholeNumber(`${field}stock`, v.stock, 0, MAX_STOCK),
        trackInventory: v.trackInventory ?? v.stock != null,
        isDefault: false,
        options: optionsOf(`${field}options`, v.options),
        position: position++,
      });
      return;
    }
    const variant = byId.get(v.id);
    if (!variant || removing.has(v.id)) throw badInput(`${field}id`, 'is not a variant of this product (or is being removed)');
    if (v.stock != null) throw badInput(`${field}stock`, 'changes with adjust_stock, which keeps a history');
    const own = prices(field, v, currency, variant.priceMinor);
    variant.priceMinor = own.priceMinor!;
    if (v.compareAtPrice !== undefined) variant.compareAtPriceMinor = own.compareAtPriceMinor;
    if (variant.compareAtPriceMinor != null && variant.compareAtPriceMinor <= variant.priceMinor) throw badInput(`${field}compareAtPrice`, 'must be above the price');
    if (v.name !== undefined) variant.name = optionalText(`${field}name`, v.name, 100) ?? null;
    if (v.sku !== undefined) variant.sku = skuOf(`${field}sku`, v.sku);
    if (v.trackInventory != null) variant.trackInventory = v.trackInventory;
    if (v.options != null) variant.options = optionsOf(`${field}options`, v.options);
  });
  if (!removing.size) return;
  for (const id of removing) tx.em.remove(byId.get(id)!);
  // At most one default per product (a unique index): the old one goes before another takes its place.
  await tx.em.flush();
  if (removing.has(existing.find((v) => v.isDefault)!.id)) {
    const next = await tx.em.findOneOrFail(ProductVariant, { productId }, { orderBy: { position: 'asc' } });
    next.isDefault = true;
  }
}

/** A product to read; NOT_FOUND when absent or another company's (or not active, with `activeOnly`). */
export async function getProduct(ctx: RequestContext, where: { id?: unknown; slug?: unknown }, options: { activeOnly?: boolean } = {}): Promise<ProductRow> {
  if (where.id !== undefined && !isUuid(where.id)) throw badInput('productId', 'must be a product id');
  if (where.slug !== undefined && (typeof where.slug !== 'string' || !where.slug)) throw badInput('slug', 'is required');
  let select = ctx.query.selectFrom('commerce.product').selectAll();
  select = where.id !== undefined ? select.where('id', '=', where.id as string) : select.where('slug', '=', where.slug as string);
  if (options.activeOnly) select = select.where('status', '=', 'active');
  const product = await ctx.first(select);
  if (!product) throw notFound('Product');
  return product;
}

export interface ProductListArgs {
  search?: string | null;
  status?: ProductStatus | null;
  categoryId?: string | null;
  brandId?: string | null;
  collectionId?: string | null;
  page?: number | null;
  limit?: number | null;
  offset?: number | null;
}

export async function listProducts(ctx: RequestContext, args: ProductListArgs, options: { activeOnly: boolean }) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('commerce.product').selectAll().orderBy('createdAt', 'desc').orderBy('id');
  if (options.activeOnly) select = select.where('status', '=', 'active');
  else if (args.status != null) select = select.where('status', '=', oneOf('status', args.status, PRODUCT_STATUSES));
  for (const field of ['categoryId', 'brandId'] as const) {
    const id = args[field];
    if (id == null) continue;
    if (!isUuid(id)) throw badInput(field, 'must be an id');
    select = select.where(field, '=', id);
  }
  if (args.collectionId != null) {
    if (!isUuid(args.collectionId)) throw badInput('collectionId', 'must be an id');
    const links = await ctx.all(ctx.query.selectFrom('commerce.collection_product').select('productId').where('collectionId', '=', args.collectionId));
    select = select.where('id', '=', anyOf(links.map((l) => l.productId)));
  }
  const search = req.search && likePattern(req.search);
  if (search) select = select.where((e) => e.or([e('name', 'ilike', search), e('description', 'ilike', search)]));
  return ctx.page(select, req);
}

/** The variants of many products at once, in one statement: the list's loader. */
export async function variantsOfProducts(ctx: RequestContext, productIds: readonly string[]): Promise<VariantRow[][]> {
  const rows = await ctx.all(ctx.query.selectFrom('commerce.product_variant').selectAll().where('productId', '=', anyOf(productIds)).orderBy('position').orderBy('id'));
  return perKey(productIds, rows, (r) => r.productId);
}
