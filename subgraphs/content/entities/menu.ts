import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

/** One navigation entry: a label linking a URL, a page or a post, with children. */
export interface MenuItem {
  label: string;
  url?: string | null;
  pageId?: string | null;
  postId?: string | null;
  children: MenuItem[];
}

/** The navigation menu of one location (header, footer…), unique per company. */
export const Menu = defineEntity({
  name: 'Menu',
  schema: 'content',
  tableName: 'menu',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    location: p.string(),
    items: p.json<MenuItem[]>(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Menu = InstanceType<typeof Menu.class>;
