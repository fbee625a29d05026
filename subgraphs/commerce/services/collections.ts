/** Collections: hand-picked sets of products. */
import { perKey } from '../../kernel/batches.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { requireOwnAll } from '../../kernel/ownership.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import { optionalText, requireText } from '../../kernel/validation.ts';
import { Collection, CollectionProduct } from '../entities/collection.ts';

export interface CollectionInput {
  name?: string | null;
  slug?: string | null;
  description?: string | null;
}

export async function createCollection(ctx: RequestContext, input: CollectionInput & { productIds?: string[] | null }) {
  const name = requireText('name', input.name, 100);
  return ctx.transaction(async (tx) => {
    const slug = await chooseSlug(tx, 'commerce.collection', { explicit: input.slug, text: name, fallback: 'item' });
    const collection = tx.em.create(Collection, { id: newId(), name, slug, description: optionalText('description', input.description, 2000) ?? null });
    if (input.productIds?.length) await link(tx, collection.id, input.productIds);
    return collection;
  });
}

export async function updateCollection(ctx: RequestContext, collectionId: string, input: CollectionInput) {
  return ctx.transaction(async (tx) => {
    const collection = await own(tx, collectionId);
    if (input.name != null) collection.name = requireText('name', input.name, 100);
    if (input.slug != null) collection.slug = await chooseSlug(tx, 'commerce.collection', { explicit: input.slug, text: collection.name, fallback: 'item', exceptId: collection.id });
    if (input.description !== undefined) collection.description = optionalText('description', input.description, 2000) ?? null;
    return collection;
  });
}

async function own(tx: RequestContext, collectionId: string) {
  if (!isUuid(collectionId)) throw badInput('collectionId', 'must be a collection id');
  const collection = await tx.em.findOne(Collection, { id: collectionId });
  if (!collection) throw notFound('Collection');
  return collection;
}

/** Adds products not in the collection yet (adding one twice is no error). */
async function link(tx: RequestContext, collectionId: string, productIds: string[]) {
  const ids = await requireOwnAll(tx, 'commerce.product', 'productIds', productIds, 'products');
  const links = await tx.all(tx.query.selectFrom('commerce.collection_product').select('productId').where('collectionId', '=', collectionId).where('productId', '=', anyOf(ids)));
  const present = new Set(links.map((l) => l.productId));
  for (const productId of ids) if (!present.has(productId)) tx.em.create(CollectionProduct, { collectionId, productId });
}

export async function addProducts(ctx: RequestContext, collectionId: string, productIds: string[]) {
  if (!productIds.length) throw badInput('productIds', 'must name at least one product');
  return ctx.transaction(async (tx) => {
    const collection = await own(tx, collectionId);
    await link(tx, collection.id, productIds);
    return collection;
  });
}

export async function removeProducts(ctx: RequestContext, collectionId: string, productIds: string[]) {
  if (!productIds.length) throw badInput('productIds', 'must name at least one product');
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
  const rows = await ctx.all(ctx.query.selectFrom('commerce.collection_product').select(['productId', 'collectionId']).where('productId', '=', anyOf(productIds)).orderBy('createdAt'));
  return perKey(productIds, rows, (r) => r.productId).map((links) => links.map((r) => r.collectionId));
}

