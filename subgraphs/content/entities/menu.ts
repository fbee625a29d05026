import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** One navigation entry: a label linking a URL, a page or a post, with children. */
export interface MenuItem {
  label: string;
  url?: string | null;
  pageId?: string | null;
  postId?: string | null;
  children: MenuItem[];
}

/** The navigation menu of one location (header, footer…), unique per company. */
export const Menu = tenantEntity({
  name: 'Menu',
  schema: 'content',
  tableName: 'menu',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    location: p.text(),
    items: p.json<MenuItem[]>(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'menu_company_id_location_key', properties: ['companyId', 'location'] }],
});
export type Menu = InstanceType<typeof Menu.class>;
