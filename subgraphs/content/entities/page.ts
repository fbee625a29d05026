import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';
import type { Block, PublishState } from './block.ts';

/** A page of the storefront: title, slug, status, ordered blocks and SEO texts. */
export const Page = tenantEntity({
  name: 'Page',
  schema: 'content',
  tableName: 'page',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    title: p.text(),
    slug: p.text(),
    status: p.text().$type<PublishState>(),
    blocks: p.json<Block[]>(),
    seoTitle: p.text().nullable(),
    seoDescription: p.text().nullable(),
    publishedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'page_company_id_slug_key', properties: ['companyId', 'slug'] }],
  checks: [{ name: 'page_status_check', expression: "status in ('draft', 'published')" }],
});
export type Page = InstanceType<typeof Page.class>;
