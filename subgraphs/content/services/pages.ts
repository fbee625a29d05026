/** Pages: create, update, find and list. */
import type { RequestContext } from '../../kernel/context.ts';
import { notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import type { PublishState } from '../entities/block.ts';
import { Page } from '../entities/page.ts';
import { newBlock, type BlockContent } from './blocks.ts';
import { flushWithSlug } from './slugs.ts';
import { publishStates } from './states.ts';

/** A page's fields as the edge checked them (resolvers/page.inputs.ts); on a change, absent means unchanged. */
export interface PageChanges {
  title?: string | null;
  slug?: string | null;
  /** The whole content, in order (replaces the blocks). */
  blocks?: BlockContent[] | null;
  status?: PublishState | null;
  seoTitle?: string | null;
  seoDescription?: string | null;
}

/** A new page: a title at least. */
export interface PageFields extends PageChanges {
  title: string;
}

async function apply(ctx: RequestContext, page: Page, input: PageChanges) {
  applyChanges(page, input, { set: ['title'], clearable: ['seoTitle', 'seoDescription'] });
  if (input.slug != null)
    page.slug = await chooseSlug(ctx, 'content.page', { explicit: input.slug, text: page.title, fallback: 'untitled', exceptId: page.id });
  if (input.blocks != null) page.blocks = input.blocks.map(newBlock);
  if (input.status != null && input.status !== page.status) {
    publishStates.assert(page.status, input.status);
    if (input.status === 'published') page.publishedAt = ctx.now();
    page.status = input.status;
  }
}

export async function createPage(ctx: RequestContext, input: PageFields) {
  const { title } = input;
  return ctx.transaction(async (tx) => {
    const page = tx.em.create(Page, {
      id: newId(),
      title,
      slug: await chooseSlug(tx, 'content.page', { explicit: input.slug, text: title, fallback: 'untitled' }),
      status: 'draft',
      blocks: [],
    });
    await apply(tx, page, { ...input, slug: undefined });
    await flushWithSlug(tx, 'content.page', page, { explicit: input.slug, title });
    return page;
  });
}

export async function updatePage(ctx: RequestContext, pageId: string, input: PageChanges) {
  return ctx.transaction(async (tx) => {
    const page = await tx.em.findOne(Page, { id: pageId });
    if (!page) throw notFound('Page');
    await apply(tx, page, input);
    return page;
  });
}

export async function listPages(ctx: RequestContext, args: { page?: number | null; limit?: number | null; search?: string | null }, publishedOnly: boolean) {
  const req = pageRequest({ ...args, limit: args.limit ?? 100 });
  let select = ctx.query.selectFrom('content.page').selectAll().orderBy('title').orderBy('id');
  if (publishedOnly) select = select.where('status', '=', 'published');
  if (req.search) select = select.where('title', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}

/** A page by its slug (as slugify stores it); storefronts see published pages only. */
export async function findPage(ctx: RequestContext, slug: string, publishedOnly: boolean) {
  let select = ctx.query.selectFrom('content.page').selectAll().where('slug', '=', slug);
  if (publishedOnly) select = select.where('status', '=', 'published');
  const page = await ctx.first(select);
  if (!page) throw notFound('Page');
  return page;
}
