/** Products and their variants: define and change them, find and list them. */
import { perKey } from '../../kernel/batches.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { parseAmount } from '../../kernel/money.ts';
import { requireOwn, requireOwnAll } from '../../kernel/ownership.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { CollectionProduct } from '../entities/collection.ts';
import { Product, ProductVariant, type ProductStatus } from '../entities/product.ts';

export type ProductRow = RowOf<'commerce.product'>;
export type VariantRow = RowOf<'commerce.product_variant'>;

export const MAX_STOCK = 1_000_000;
export const MAX_VARIANTS = 100;

/** A variant's fields as the edge checked them (resolvers/product.inputs.ts); on a change, absent means unchanged and null clears name and sku. */
export interface VariantChanges {
  /** update only: the variant to change; without it a variant is added. */
  id?: string | null;
  name?: string | null;
  sku?: string | null;
  /** In major units of the company currency ("12.50"); the product's price when left out. */
  price?: string | null;
  compareAtPrice?: string | null;
  /** Units in stock of a new variant (an existing one's changes through adjustStock). */
  stock?: number | null;
  trackInventory?: boolean | null;
  /** The options that tell it apart ({ size: "M" }). */
  options?: Record<string, string> | null;
}

/** A product's fields as the edge checked them (resolvers/product.inputs.ts); on a change, absent means unchanged and null clears an optional one. */
export interface ProductChanges {
  name?: string | null;
  /** As given: chooseSlug checks it and makes it unique; blank makes one from the name. */
  slug?: string | null;
  description?: string | null;
  images?: string[] | null;
  categoryId?: string | null;
  brandId?: string | null;
  collectionIds?: string[] | null;
  /** The default variant's price, compare-at price, SKU, stock (when creating) and inventory tracking. */
  price?: string | null;
  compareAtPrice?: string | null;
  sku?: string | null;
  stock?: number | null;
  trackInventory?: boolean | null;
  /** Percent with two decimals ("20.00"). */
  taxRate?: string | null;
  status?: ProductStatus | null;
  variants?: VariantChanges[] | null;
  /** update only. */
  removeVariantIds?: string[] | null;
}

/** A new product: its name, and variants without ids (the edge refuses ids and removeVariantIds). */
export type NewProduct = ProductChanges & { name: string };

/** Validated prices of a create or update: a compare-at price is above the price it compares with. */
function prices(field: string, input: { price?: string | null; compareAtPrice?: string | null }, currency: string, fallbackMinor?: number) {
  const priceMinor = input.price != null ? parseAmount(`${field}price`, input.price, currency) : fallbackMinor;
  const compareAtPriceMinor = input.compareAtPrice != null ? parseAmount(`${field}compareAtPrice`, input.compareAtPrice, currency) : null;
  if (compareAtPriceMinor != null && priceMinor != null && compareAtPriceMinor <= priceMinor)
    throw badInput(`${field}compareAtPrice`, 'must be above the price');
  return { priceMinor, compareAtPriceMinor };
}

/** The product's own fields, then the ones that must be the company's: its category, brand and collections. */
async function applyProduct(tx: RequestContext, product: Product, input: ProductChanges) {
  applyChanges(product, input, { set: ['name', 'images', 'taxRate', 'status'], clearable: ['description'] });
  if (input.categoryId !== undefined)
    product.categoryId =
      input.categoryId === null ? null : await requireOwn(tx, 'commerce.product_category', 'categoryId', input.categoryId, 'a product category');
  if (input.brandId !== undefined)
    product.brandId = input.brandId === null ? null : await requireOwn(tx, 'commerce.brand', 'brandId', input.brandId, 'a brand');
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
export async function createProduct(ctx: RequestContext, input: NewProduct) {
  const { currency } = await tenantSettings(ctx);
  const { name } = input;
  const variants = input.variants?.length ? input.variants : null;
  if (!variants && input.price == null) throw badInput('price', 'is required');
  const base = prices('', input, currency);
  return ctx.transaction(async (tx) => {
    const product = tx.em.create(Product, {
      id: newId(),
      name,
      slug: await chooseSlug(tx, 'commerce.product', { explicit: input.slug, text: name, fallback: 'item' }),
      images: [],
      status: 'draft',
      taxRate: '0.00',
    });
    await applyProduct(tx, product, input);
    const made = (variants ?? [{ sku: input.sku, stock: input.stock, trackInventory: input.trackInventory }]).map((v, i) => {
      const field = variants ? `variants[${i}].` : '';
      const own = variants ? prices(field, v, currency, base.priceMinor) : base;
      if (own.priceMinor == null) throw badInput(`${field}price`, 'is required (or give the product a price)');
      return tx.em.create(ProductVariant, {
        id: newId(),
        productId: product.id,
        name: variants ? (v.name ?? null) : null,
        sku: v.sku ?? null,
        priceMinor: own.priceMinor,
        compareAtPriceMinor: own.compareAtPriceMinor ?? (variants ? base.compareAtPriceMinor : null),
        currency,
        stock: v.stock ?? 0,
        trackInventory: v.trackInventory ?? input.trackInventory ?? v.stock != null,
        isDefault: i === 0,
        options: variants ? (v.options ?? {}) : {},
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
export async function updateProduct(ctx: RequestContext, productId: string, input: ProductChanges) {
  return ctx.transaction(async (tx) => {
    const product = await tx.em.findOne(Product, { id: productId });
    if (!product) throw notFound('Product');
    if (input.slug != null)
      product.slug = await chooseSlug(tx, 'commerce.product', {
        explicit: input.slug,
        text: input.name ?? product.name,
        fallback: 'item',
        exceptId: product.id,
      });
    await applyProduct(tx, product, input);
    if (input.variants != null || input.removeVariantIds != null) await changeVariants(tx, product.id, input.variants ?? [], input.removeVariantIds ?? []);
    if (input.price != null || input.compareAtPrice !== undefined || input.sku !== undefined || input.trackInventory != null) {
      const variant = await tx.em.findOneOrFail(ProductVariant, { productId, isDefault: true });
      const p = prices('', input, variant.currency, variant.priceMinor);
      variant.priceMinor = p.priceMinor!;
      if (input.compareAtPrice !== undefined) variant.compareAtPriceMinor = p.compareAtPriceMinor;
      if (variant.compareAtPriceMinor != null && variant.compareAtPriceMinor <= variant.priceMinor) throw badInput('compareAtPrice', 'must be above the price');
      if (input.sku !== undefined) variant.sku = input.sku;
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
async function changeVariants(tx: RequestContext, productId: string, changes: VariantChanges[], removeIds: string[]) {
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
        name: v.name ?? null,
        sku: v.sku ?? null,
        priceMinor: own.priceMinor,
        compareAtPriceMinor: own.compareAtPriceMinor,
        currency,
        stock: v.stock ?? 0,
        trackInventory: v.trackInventory ?? v.stock != null,
        isDefault: false,
        options: v.options ?? {},
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
    if (variant.compareAtPriceMinor != null && variant.compareAtPriceMinor <= variant.priceMinor)
      throw badInput(`${field}compareAtPrice`, 'must be above the price');
    applyChanges(variant, v, { set: ['trackInventory', 'options'], clearable: ['name', 'sku'] });
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
export async function getProduct(ctx: RequestContext, where: { id: string } | { slug: string }, options: { activeOnly?: boolean } = {}): Promise<ProductRow> {
  let select = ctx.query.selectFrom('commerce.product').selectAll();
  select = 'id' in where ? select.where('id', '=', where.id) : select.where('slug', '=', where.slug);
  if (options.activeOnly) select = select.where('status', '=', 'active');
  const product = await ctx.first(select);
  if (!product) throw notFound('Product');
  return product;
}

/** A product list's page and filters, the ids checked by the edge (resolvers/product.inputs.ts). */
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
  else if (args.status != null) select = select.where('status', '=', args.status);
  if (args.categoryId != null) select = select.where('categoryId', '=', args.categoryId);
  if (args.brandId != null) select = select.where('brandId', '=', args.brandId);
  if (args.collectionId != null) {
    const links = await ctx.all(ctx.query.selectFrom('commerce.collection_product').select('productId').where('collectionId', '=', args.collectionId));
    select = select.where('id', '=', anyOf(links.map((l) => l.productId)));
  }
  const search = req.search && likePattern(req.search);
  if (search) select = select.where((e) => e.or([e('name', 'ilike', search), e('description', 'ilike', search)]));
  return ctx.page(select, req);
}

/** The variants of many products at once, in one statement: the list's loader. */
export async function variantsOfProducts(ctx: RequestContext, productIds: readonly string[]): Promise<VariantRow[][]> {
  const rows = await ctx.all(
    ctx.query.selectFrom('commerce.product_variant').selectAll().where('productId', '=', anyOf(productIds)).orderBy('position').orderBy('id'),
  );
  return perKey(productIds, rows, (r) => r.productId);
}

/** A product's variants, batched per response (the default one first). */
export const variantsOf = (ctx: RequestContext, productId: string) =>
  ctx.loader('commerce.productVariants', (ids: readonly string[]) => variantsOfProducts(ctx, ids)).load(productId);
