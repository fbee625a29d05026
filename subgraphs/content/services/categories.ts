/** Content categories: create and list. */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import { ContentCategory } from '../entities/category.ts';
import { flushWithSlug } from './slugs.ts';

/** A new category as the edge checked it (resolvers/category.inputs.ts); the slug is made from the name when not given. */
export interface CategoryFields {
  name: string;
  slug?: string | null;
}

export async function createCategory(ctx: RequestContext, input: CategoryFields) {
  const { name } = input;
  return ctx.transaction(async (tx) => {
    const slug = await chooseSlug(tx, 'content.category', { explicit: input.slug, text: name, fallback: 'untitled' });
    const category = tx.em.create(ContentCategory, { id: newId(), name, slug });
    await flushWithSlug(tx, 'content.category', category, { explicit: input.slug, title: name });
    return category;
  });
}

export async function listCategories(ctx: RequestContext, args: { page?: number | null; limit?: number | null; search?: string | null }) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('content.category').selectAll().orderBy('name').orderBy('id');
  if (req.search) select = select.where('name', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}
