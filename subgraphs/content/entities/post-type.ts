import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

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

/** A custom field of a post type: its key, label, value type and whether a post must fill it. */
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
