import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';
import type { Block, PublishState } from './block.ts';
import { ContentCategory } from './category.ts';
import { PostType } from './post-type.ts';

/** A post of a post type: title, slug, status, category, custom field values and ordered blocks. */
export const Post = tenantEntity({
  name: 'Post',
  schema: 'content',
  tableName: 'post',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    postTypeId: p.manyToOne(PostType).mapToPk().deferMode('deferred'),
    title: p.text(),
    slug: p.text(),
    status: p.text().$type<PublishState>(),
    categoryId: p.manyToOne(ContentCategory).mapToPk().nullable().deleteRule('no action').deferMode('deferred'),
    fields: p.json<Record<string, unknown>>(),
    blocks: p.json<Block[]>(),
    excerpt: p.text().nullable(),
    publishedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'post_company_id_slug_key', properties: ['companyId', 'slug'] }],
  indexes: [{ name: 'post_listing_idx', columns: [{ name: 'company_id' }, { name: 'status' }, { name: 'published_at', sort: 'desc' }] }],
  checks: [{ name: 'post_status_check', expression: "status in ('draft', 'published')" }],
});
export type Post = InstanceType<typeof Post.class>;
