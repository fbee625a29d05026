/** Product categories: the shop's sections, nested by parent. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, conflict, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { requireOwn } from '../../kernel/ownership.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import { ProductCategory } from '../entities/category.ts';

/** A category's fields as the edge checked them (resolvers/product-category.inputs.ts); on a change, absent means unchanged and null clears an optional one. */
export interface CategoryChanges {
  name?: string | null;
  /** As given: chooseSlug checks it and makes it unique; blank makes one from the name. */
  slug?: string | null;
  description?: string | null;
  /** The category it sits in; null for the top level. */
  parentId?: string | null;
}

export async function createCategory(ctx: RequestContext, input: CategoryChanges & { name: string }) {
  return ctx.transaction(async (tx) => {
    const parentId = input.parentId ? await requireOwn(tx, 'commerce.product_category', 'parentId', input.parentId, 'a product category') : null;
    const slug = await chooseSlug(tx, 'commerce.product_category', { explicit: input.slug, text: input.name, fallback: 'item' });
    return tx.em.create(ProductCategory, { id: newId(), name: input.name, slug, parentId, description: input.description ?? null });
  });
}

export async function updateCategory(ctx: RequestContext, categoryId: string, input: CategoryChanges) {
  return ctx.transaction(async (tx) => {
    const category = await tx.em.findOne(ProductCategory, { id: categoryId });
    if (!category) throw notFound('Product category');
    applyChanges(category, input, { set: ['name'], clearable: ['description'] });
    if (input.slug != null)
      category.slug = await chooseSlug(tx, 'commerce.product_category', { explicit: input.slug, text: category.name, fallback: 'item', exceptId: category.id });
    if (input.parentId !== undefined) {
      if (input.parentId === null) category.parentId = null;
      else {
        const parentId = await requireOwn(tx, 'commerce.product_category', 'parentId', input.parentId, 'a product category');
        // A category may not sit below itself: walk up from the new parent.
        for (
          let at: string | null | undefined = parentId;
          at;
          at = (await tx.first(tx.query.selectFrom('commerce.product_category').select('parentId').where('id', '=', at)))?.parentId
        ) {
          if (at === category.id) throw badInput('parentId', 'would put the category inside itself');
        }
        category.parentId = parentId;
      }
    }
    return category;
  });
}

/** Deletes an empty category; one with products or subcategories is 409 (move or delete them first). */
export async function deleteCategory(ctx: RequestContext, categoryId: string) {
  return ctx.transaction(async (tx) => {
    const category = await tx.em.findOne(ProductCategory, { id: categoryId });
    if (!category) throw notFound('Product category');
    const products = Number(
      (await tx.first(
        tx.query
          .selectFrom('commerce.product')
          .select((e) => e.fn.countAll<string>().as('n'))
          .where('categoryId', '=', categoryId),
      ))!.n,
    );
    const children = Number(
      (await tx.first(
        tx.query
          .selectFrom('commerce.product_category')
          .select((e) => e.fn.countAll<string>().as('n'))
          .where('parentId', '=', categoryId),
      ))!.n,
    );
    if (products || children)
      throw conflict(`The category still has ${products} products and ${children} subcategories; move them first`, {
        field: 'categoryId',
        products,
        subcategories: children,
      });
    tx.em.remove(category);
    return { ...category };
  });
}

export async function listCategories(
  ctx: RequestContext,
  args: { page?: number | null; limit?: number | null; search?: string | null; parentId?: string | null },
) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('commerce.product_category').selectAll().orderBy('name').orderBy('id');
  if (req.search) select = select.where('name', 'ilike', likePattern(req.search));
  if (args.parentId != null) select = select.where('parentId', '=', args.parentId);
  return ctx.page(select, req);
}

/** A product's category (batched per response: ctx.find); null without one. */
export async function categoryOf(ctx: RequestContext, categoryId: string | null | undefined) {
  return categoryId ? ctx.find('commerce.product_category', categoryId) : null;
}
