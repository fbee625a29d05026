import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';
import type { Block, PublishState } from './block.ts';

/** A post of a post type: title, slug, status, category, custom field values and ordered blocks. */
export const Post = defineEntity({
  name: 'Post',
  schema: 'content',
  tableName: 'post',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    postTypeId: p.uuid(),
    title: p.string(),
    slug: p.string(),
    status: p.string().$type<PublishState>(),
    categoryId: p.uuid().nullable(),
    fields: p.json<Record<string, unknown>>(),
    blocks: p.json<Block[]>(),
    excerpt: p.text().nullable(),
    publishedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Post = InstanceType<typeof Post.class>;
