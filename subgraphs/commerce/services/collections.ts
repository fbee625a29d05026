/** Collections: hand-picked sets of products. */
import { perKey } from '../../kernel/batches.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { requireOwnAll } from '../../kernel/ownership.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import { Collection, CollectionProduct } from '../entities/collection.ts';

/** A collection's fields as the edge checked them (resolvers/collection.inputs.ts); on a change, absent means unchanged. */
export interface CollectionChanges {
  name?: string | null;
  /** As given: chooseSlug checks it and makes it unique; blank makes one from the name. */
  slug?: string | null;
  description?: string | null;
}

/** A new collection, with the products to put in it. */
export interface NewCollection extends CollectionChanges {
  name: string;
  productIds?: string[] | null;
}

export async function createCollection(ctx: RequestContext, input: NewCollection) {
  return ctx.transaction(async (tx) => {
    const slug = await chooseSlug(tx, 'commerce.collection', { explicit: input.slug, text: input.name, fallback: 'item' });
    const collection = tx.em.create(Collection, { id: newId(), name: input.name, slug, description: input.description ?? null });
    if (input.productIds?.length) await link(tx, collection.id, input.productIds);
    return collection;
  });
}

export async function updateCollection(ctx: RequestContext, collectionId: string, input: CollectionChanges) {
  return ctx.transaction(async (tx) => {
    const collection = await own(tx, collectionId);
    applyChanges(collection, input, { set: ['name'], clearable: ['description'] });
    if (input.slug != null)
      collection.slug = await chooseSlug(tx, 'commerce.collection', { explicit: input.slug, text: collection.name, fallback: 'item', exceptId: collection.id });
    return collection;
  });
}

async function own(tx: RequestContext, collectionId: string) {
  const collection = await tx.em.findOne(Collection, { id: collectionId });
  if (!collection) throw notFound('Collection');
  return collection;
}

/** Adds products not in the collection yet (adding one twice is no error). */
async function link(tx: RequestContext, collectionId: string, productIds: string[]) {
  const ids = await requireOwnAll(tx, 'commerce.product', 'productIds', productIds, 'products');
  const links = await tx.all(
    tx.query.selectFrom('commerce.collection_product').select('productId').where('collectionId', '=', collectionId).where('productId', '=', anyOf(ids)),
  );
  const present = new Set(links.map((l) => l.productId));
  for (const productId of ids) if (!present.has(productId)) tx.em.create(CollectionProduct, { collectionId, productId });
}

export async function addProducts(ctx: RequestContext, collectionId: string, productIds: string[]) {
  return ctx.transaction(async (tx) => {
    const collection = await own(tx, collectionId);
    await link(tx, collection.id, productIds);
    return collection;
  });
}

export async function removeProducts(ctx: RequestContext, collectionId: string, productIds: string[]) {
  return ctx.transaction(async (tx) => {
    const collection = await own(tx, collectionId);
    const ids = await requireOwnAll(tx, 'commerce.product', 'productIds', productIds, 'products');
    tx.em.remove(await tx.em.find(CollectionProduct, { collectionId: collection.id, productId: { $in: ids } }));
    return collection;
  });
}

export async function listCollections(ctx: RequestContext, args: { page?: number | null; limit?: number | null; search?: string | null }) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('commerce.collection').selectAll().orderBy('name').orderBy('id');
  if (req.search) select = select.where('name', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}

/** The collection ids of many products, one statement (the product list's loader). */
export async function collectionIdsOfProducts(ctx: RequestContext, productIds: readonly string[]): Promise<string[][]> {
  const rows = await ctx.all(
    ctx.query.selectFrom('commerce.collection_product').select(['productId', 'collectionId']).where('productId', '=', anyOf(productIds)).orderBy('createdAt'),
  );
  return perKey(productIds, rows, (r) => r.productId).map((links) => links.map((r) => r.collectionId));
}

/** The collections a product is in, batched per response. */
export const collectionIdsOf = (ctx: RequestContext, productId: string) =>
  ctx.loader('commerce.productCollections', (ids: readonly string[]) => collectionIdsOfProducts(ctx, ids)).load(productId);
