/** Pages: create, update, find and list. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import { normalizeSlug, optionalText, requireText } from '../../kernel/validation.ts';
import type { PublishState } from '../entities/block.ts';
import { Page } from '../entities/page.ts';
import { newBlocks } from './blocks.ts';
import { flushWithSlug } from './slugs.ts';
import { publishStates } from './states.ts';

export interface PageInput {
  title?: string | null;
  slug?: string | null;
  blocks?: unknown;
  status?: PublishState | null;
  seoTitle?: string | null;
  seoDescription?: string | null;
}

async function apply(ctx: RequestContext, page: Page, input: PageInput) {
  if (input.title != null) page.title = requireText('title', input.title, 300);
  if (input.slug != null) page.slug = await chooseSlug(ctx, 'content.page', { explicit: input.slug, text: page.title, fallback: 'untitled', exceptId: page.id });
  if (input.blocks != null) page.blocks = newBlocks(input.blocks);
  if (input.seoTitle !== undefined) page.seoTitle = optionalText('seoTitle', input.seoTitle, 200) ?? null;
  if (input.seoDescription !== undefined) page.seoDescription = optionalText('seoDescription', input.seoDescription, 500) ?? null;
  if (input.status != null && input.status !== page.status) {
    publishStates.assert(page.status, input.status);
    if (input.status === 'published') page.publishedAt = ctx.now();
    page.status = input.status;
  }
}

export async function createPage(ctx: RequestContext, input: PageInput) {
  const title = requireText('title', input.title, 300);
  return ctx.transaction(async (tx) => {
    const page = tx.em.create(Page, { id: newId(), title, slug: await chooseSlug(tx, 'content.page', { explicit: input.slug, text: title, fallback: 'untitled' }), status: 'draft', blocks: [] });
    await apply(tx, page, { ...input, slug: undefined });
    await flushWithSlug(tx, 'content.page', page, { explicit: input.slug, title });
    return page;
  });
}

export async function updatePage(ctx: RequestContext, pageId: unknown, input: PageInput) {
  if (!isUuid(pageId)) throw badInput('pageId', 'must be a page id');
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

export async function findPage(ctx: RequestContext, slug: unknown, publishedOnly: boolean) {
  let select = ctx.query.selectFrom('content.page').selectAll().where('slug', '=', normalizeSlug(requireText('slug', slug, 200)));
  if (publishedOnly) select = select.where('status', '=', 'published');
  const page = await ctx.first(select);
  if (!page) throw notFound('Page');
  return page;
}
