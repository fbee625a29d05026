/** Navigation menus: set a location's menu, find it, and resolve its links to current slugs. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { Menu, type MenuItem } from '../entities/menu.ts';

/**
 * Sets the whole menu of a location from items the edge checked (resolvers/menu.inputs.ts), each
 * linking exactly one of a URL, a page or a post; the pages and posts must be this company's.
 */
export async function setMenu(ctx: RequestContext, location: string, items: MenuItem[]) {
  const pageIds = new Set<string>();
  const postIds = new Set<string>();
  const collect = (list: MenuItem[]) => list.forEach((i) => (i.pageId && pageIds.add(i.pageId), i.postId && postIds.add(i.postId), collect(i.children)));
  collect(items);
  await ctx.transaction(async (tx) => {
    const count = async (table: 'content.page' | 'content.post', ids: Set<string>) =>
      Number(
        (
          await tx.first(
            tx.query
              .selectFrom(table)
              .select((e) => e.fn.countAll<number>().as('n'))
              .where('id', '=', anyOf([...ids])),
          )
        )?.n ?? 0,
      );
    if (pageIds.size && (await count('content.page', pageIds)) !== pageIds.size) throw badInput('items', 'links a page that is not in this company');
    if (postIds.size && (await count('content.post', postIds)) !== postIds.size) throw badInput('items', 'links a post that is not in this company');
    await tx.em.upsert(
      Menu,
      { id: newId(), location, items, updatedAt: tx.now() },
      { onConflictFields: ['companyId', 'location'], onConflictExcludeFields: ['id'] },
    );
  });
  return menuAt(ctx, location, false);
}

/** The menu of a location (lower case), its links resolved; a storefront sees links to published content only. */
export async function menuAt(ctx: RequestContext, location: string, publishedOnly: boolean) {
  const menu = await ctx.first(ctx.query.selectFrom('content.menu').selectAll().where('location', '=', location));
  if (!menu) throw notFound('Menu');
  return resolveMenu(ctx, menu, publishedOnly);
}

/** A menu item with where it leads. */
interface LinkedMenuItem extends Omit<MenuItem, 'children'> {
  slug: string | null;
  href: string | null;
  children: LinkedMenuItem[];
}

/**
 * Menu items with where they lead: a page or post link resolves to its current slug (and a
 * storefront only sees links to published content).
 */
async function resolveMenu(ctx: RequestContext, menu: RowOf<'content.menu'>, publishedOnly: boolean) {
  const pageIds: string[] = [];
  const postIds: string[] = [];
  const collect = (items: MenuItem[]) => items.forEach((i) => (i.pageId && pageIds.push(i.pageId), i.postId && postIds.push(i.postId), collect(i.children)));
  collect(menu.items);
  const pages = pageIds.length ? await ctx.all(ctx.query.selectFrom('content.page').select(['id', 'slug', 'status']).where('id', '=', anyOf(pageIds))) : [];
  const posts = postIds.length ? await ctx.all(ctx.query.selectFrom('content.post').select(['id', 'slug', 'status']).where('id', '=', anyOf(postIds))) : [];
  const visible = (row?: { status: string }) => !!row && (!publishedOnly || row.status === 'published');
  const map = (items: MenuItem[]): LinkedMenuItem[] =>
    items.flatMap((i) => {
      const page = i.pageId ? pages.find((p) => p.id === i.pageId) : undefined;
      const post = i.postId ? posts.find((p) => p.id === i.postId) : undefined;
      if ((i.pageId && !visible(page)) || (i.postId && !visible(post))) return [];
      const href = i.url ?? (page ? `/${page.slug}` : post ? `/posts/${post.slug}` : null);
      return [{ label: i.label, url: i.url, pageId: i.pageId, postId: i.postId, slug: page?.slug ?? post?.slug ?? null, href, children: map(i.children) }];
    });
  return { id: menu.id, location: menu.location, items: map(menu.items), updatedAt: menu.updatedAt };
}
