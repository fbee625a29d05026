import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { likePattern, pageRequest, toPage } from '../../kernel/pagination.ts';
import { lowerCase, normalizeSlug, oneOf, optionalText, requireText } from '../../kernel/validation.ts';
import { Menu, Page, Post, PUBLISH_STATES, type MenuItem, type PublishState } from '../entities/cms.ts';
import { newBlocks } from './blocks.ts';
import { chooseSlug, flushWithSlug } from './slugs.ts';

export interface PageInput {
  title?: string | null;
  slug?: string | null;
  blocks?: unknown;
  status?: string | null;
  seoTitle?: string | null;
  seoDescription?: string | null;
}

const status = (value: unknown): PublishState => oneOf('status', value, PUBLISH_STATES, lowerCase);

async function apply(ctx: RequestContext, page: Page, input: PageInput) {
  if (input.title != null) page.title = requireText('title', input.title, 300);
  if (input.slug != null) page.slug = await chooseSlug(ctx, Page, { explicit: input.slug, title: page.title, exceptId: page.id });
  if (input.blocks != null) page.blocks = newBlocks(input.blocks);
  if (input.seoTitle !== undefined) page.seoTitle = optionalText('seoTitle', input.seoTitle, 200) ?? null;
  if (input.seoDescription !== undefined) page.seoDescription = optionalText('seoDescription', input.seoDescription, 500) ?? null;
  if (input.status != null) {
    const next = status(input.status);
    if (next === 'published' && page.status !== 'published') page.publishedAt = ctx.now();
    page.status = next;
  }
}

export async function createPage(ctx: RequestContext, input: PageInput) {
  const title = requireText('title', input.title, 300);
  return ctx.transaction(async (tx) => {
    const page = tx.em.create(Page, { id: newId(), companyId: tx.companyId, title, slug: await chooseSlug(tx, Page, { explicit: input.slug, title }), status: 'draft', blocks: [] } as any);
    await apply(tx, page, { ...input, slug: undefined });
    await flushWithSlug(tx, Page, page, { explicit: input.slug, title });
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
  const where: Record<string, unknown> = publishedOnly ? { status: 'published' } : {};
  if (req.search) where.title = { $ilike: likePattern(req.search) };
  const [items, total] = await ctx.em.findAndCount(Page, where, { orderBy: { title: 'asc', id: 'asc' }, limit: req.limit, offset: req.offset });
  return toPage(items, total, req);
}

export async function findPage(ctx: RequestContext, slug: unknown, publishedOnly: boolean) {
  const page = await ctx.em.findOne(Page, { slug: normalizeSlug(requireText('slug', slug, 200)), ...(publishedOnly ? { status: 'published' } : {}) });
  if (!page) throw notFound('Page');
  return page;
}

interface MenuItemInput {
  label?: string;
  url?: string | null;
  pageId?: string | null;
  postId?: string | null;
  children?: MenuItemInput[] | null;
}

/** Sets the whole menu of a location; each item links exactly one of a URL, a page or a post of this company. */
export async function setMenu(ctx: RequestContext, location: unknown, items: MenuItemInput[]) {
  const loc = requireText('location', location, 60).toLowerCase();
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(loc)) throw badInput('location', 'must be letters, digits, - or _ (e.g. header, footer)');
  const pageIds = new Set<string>();
  const postIds = new Set<string>();
  const walk = (list: MenuItemInput[], at: string, depth: number): MenuItem[] => {
    if (depth > 3) throw badInput(at, 'menus nest at most 3 levels');
    return list.map((item, i) => {
      const here = `${at}[${i}]`;
      const targets = [item.url, item.pageId, item.postId].filter((x) => x != null && x !== '');
      if (targets.length !== 1) throw badInput(here, 'needs exactly one of url, pageId or postId');
      if (item.url && !/^(https?:\/\/|\/|#|mailto:|tel:)/.test(item.url)) throw badInput(`${here}.url`, 'must be a URL or a path');
      if (item.pageId) isUuid(item.pageId) ? pageIds.add(item.pageId) : (() => { throw badInput(`${here}.pageId`, 'must be a page id'); })();
      if (item.postId) isUuid(item.postId) ? postIds.add(item.postId) : (() => { throw badInput(`${here}.postId`, 'must be a post id'); })();
      return { label: requireText(`${here}.label`, item.label, 100), url: item.url ?? null, pageId: item.pageId ?? null, postId: item.postId ?? null, children: walk(item.children ?? [], `${here}.children`, depth + 1) };
    });
  };
  const tree = walk(items ?? [], 'items', 1);
  await ctx.transaction(async (tx) => {
    if (pageIds.size && (await tx.em.count(Page, { id: { $in: [...pageIds] } })) !== pageIds.size) throw badInput('items', 'links a page that is not in this company');
    if (postIds.size && (await tx.em.count(Post, { id: { $in: [...postIds] } })) !== postIds.size) throw badInput('items', 'links a post that is not in this company');
    await tx.em.upsert(Menu, { id: newId(), companyId: tx.companyId, location: loc, items: tree, updatedAt: tx.now() } as any, { onConflictFields: ['companyId', 'location'] as any, onConflictExcludeFields: ['id'] as any });
  });
  return findMenu(ctx, loc);
}

export async function findMenu(ctx: RequestContext, location: unknown) {
  const menu = await ctx.em.findOne(Menu, { location: requireText('location', location, 60).toLowerCase() }, { refresh: true });
  if (!menu) throw notFound('Menu');
  return menu;
}

/**
 * Menu items with where they lead: a page or post link resolves to its current slug (and a
 * storefront only sees links to published content).
 */
export async function resolveMenu(ctx: RequestContext, menu: Menu, publishedOnly: boolean) {
  const pageIds: string[] = [];
  const postIds: string[] = [];
  const collect = (items: MenuItem[]) => items.forEach((i) => (i.pageId && pageIds.push(i.pageId), i.postId && postIds.push(i.postId), collect(i.children)));
  collect(menu.items);
  const pages = pageIds.length ? await ctx.em.find(Page, { id: { $in: pageIds } }) : [];
  const posts = postIds.length ? await ctx.em.find(Post, { id: { $in: postIds } }) : [];
  const visible = (row?: { status: string }) => !!row && (!publishedOnly || row.status === 'published');
  const map = (items: MenuItem[]): any[] =>
    items.flatMap((i) => {
      const page = i.pageId ? pages.find((p) => p.id === i.pageId) : undefined;
      const post = i.postId ? posts.find((p) => p.id === i.postId) : undefined;
      if ((i.pageId && !visible(page)) || (i.postId && !visible(post))) return [];
      const href = i.url ?? (page ? `/${page.slug}` : post ? `/posts/${post.slug}` : null);
      return [{ label: i.label, url: i.url, pageId: i.pageId, postId: i.postId, slug: page?.slug ?? post?.slug ?? null, href, children: map(i.children) }];
    });
  return { id: menu.id, location: menu.location, items: map(menu.items), updatedAt: menu.updatedAt };
}
