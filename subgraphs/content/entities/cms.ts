import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

/** A block of a post or page: a stable id, a version that grows on each edit, a type and its data. */
export interface Block {
  id: string;
  version: number;
  type: string;
  data: Record<string, unknown>;
}

export const PUBLISH_STATES = ['draft', 'published'] as const;
export type PublishState = (typeof PUBLISH_STATES)[number];

export const ContentCategory = defineEntity({
  name: 'ContentCategory',
  schema: 'content',
  tableName: 'category',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    slug: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type ContentCategory = InstanceType<typeof ContentCategory.class>;

/** A kind of post (`post` exists in every company) with typed custom fields. */
export const PostType = defineEntity({
  name: 'PostType',
  schema: 'content',
  tableName: 'post_type',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    key: p.string(),
    label: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type PostType = InstanceType<typeof PostType.class>;

export const FIELD_TYPES = ['text', 'number', 'boolean', 'date', 'image', 'url', 'select', 'richtext'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const PostTypeField = defineEntity({
  name: 'PostTypeField',
  schema: 'content',
  tableName: 'post_type_field',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    postTypeId: p.uuid(),
    key: p.string(),
    label: p.string(),
    fieldType: p.string().$type<FieldType>(),
    required: p.boolean(),
    options: p.json<string[]>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type PostTypeField = InstanceType<typeof PostTypeField.class>;

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

/** One navigation entry: a label linking a URL, a page or a post, with children. */
export interface MenuItem {
  label: string;
  url?: string | null;
  pageId?: string | null;
  postId?: string | null;
  children: MenuItem[];
}

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
