/** Navigation menus: set a location's menu, find it, and resolve its links to current slugs. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { requireText } from '../../kernel/validation.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { Menu, type MenuItem } from '../entities/menu.ts';

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
    const count = async (table: 'content.page' | 'content.post', ids: Set<string>) =>
      Number((await tx.first(tx.query.selectFrom(table).select((e) => e.fn.countAll<number>().as('n')).where('id', '=', anyOf([...ids]))))?.n ?? 0);
    if (pageIds.size && (await count('content.page', pageIds)) !== pageIds.size) throw badInput('items', 'links a page that is not in this company');
    if (postIds.size && (await count('content.post', postIds)) !== postIds.size) throw badInput('items', 'links a post that is not in this company');
    await tx.em.upsert(Menu, { id: newId(), location: loc, items: tree, updatedAt: tx.now() }, { onConflictFields: ['companyId', 'location'], onConflictExcludeFields: ['id'] });
  });
  return findMenu(ctx, loc);
}

export async function findMenu(ctx: RequestContext, location: unknown) {
  const menu = await ctx.first(ctx.query.selectFrom('content.menu').selectAll().where('location', '=', requireText('location', location, 60).toLowerCase()));
  if (!menu) throw notFound('Menu');
  return menu;
}

/**
 * Menu items with where they lead: a page or post link resolves to its current slug (and a
 * storefront only sees links to published content).
 */
export async function resolveMenu(ctx: RequestContext, menu: RowOf<'content.menu'>, publishedOnly: boolean) {
  const pageIds: string[] = [];
  const postIds: string[] = [];
  const collect = (items: MenuItem[]) => items.forEach((i) => (i.pageId && pageIds.push(i.pageId), i.postId && postIds.push(i.postId), collect(i.children)));
  collect(menu.items);
  const pages = pageIds.length ? await ctx.all(ctx.query.selectFrom('content.page').select(['id', 'slug', 'status']).where('id', '=', anyOf(pageIds))) : [];
  const posts = postIds.length ? await ctx.all(ctx.query.selectFrom('content.post').select(['id', 'slug', 'status']).where('id', '=', anyOf(postIds))) : [];
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
