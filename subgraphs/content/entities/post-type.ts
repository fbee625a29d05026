import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** A kind of post (`post` exists in every company) with typed custom fields. */
export const PostType = tenantEntity({
  name: 'PostType',
  schema: 'content',
  tableName: 'post_type',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    key: p.text(),
    label: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'post_type_company_id_key_key', properties: ['companyId', 'key'] }],
});
export type PostType = InstanceType<typeof PostType.class>;

export const FIELD_TYPES = ['text', 'number', 'boolean', 'date', 'image', 'url', 'select', 'richtext'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A custom field of a post type: its key, label, value type and whether a post must fill it. */
export const PostTypeField = tenantEntity({
  name: 'PostTypeField',
  schema: 'content',
  tableName: 'post_type_field',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    postTypeId: p.manyToOne(PostType).mapToPk().deleteRule('cascade').deferMode('deferred'),
    key: p.text(),
    label: p.text(),
    fieldType: p.text().$type<FieldType>(),
    required: p.boolean(),
    options: p.json<string[]>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'post_type_field_post_type_id_key_key', properties: ['postTypeId', 'key'] }],
  checks: [
    { name: 'post_type_field_field_type_check', expression: "field_type in ('text', 'number', 'boolean', 'date', 'image', 'url', 'select', 'richtext')" },
  ],
});
export type PostTypeField = InstanceType<typeof PostTypeField.class>;
