import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';
import type { Block, PublishState } from './block.ts';

/** A page of the storefront: title, slug, status, ordered blocks and SEO texts. */
export const Page = defineEntity({
  name: 'Page',
  schema: 'content',
  tableName: 'page',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    title: p.string(),
    slug: p.string(),
    status: p.string().$type<PublishState>(),
    blocks: p.json<Block[]>(),
    seoTitle: p.string().nullable(),
    seoDescription: p.text().nullable(),
    publishedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Page = InstanceType<typeof Page.class>;
