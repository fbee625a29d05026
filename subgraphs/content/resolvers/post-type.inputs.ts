/** The post type tools' inputs, checked before the service sees them. */
import { z } from 'zod';
import { id, oneOf, text } from '../../kernel/schemas.ts';
import { FIELD_TYPES } from '../entities/post-type.ts';
import { RESERVED_KEYS } from '../services/slugs.ts';
import type { PostTypeFieldFields, PostTypeFields } from '../services/post-types.ts';

export const NewPostType = z.object({
  key: text(40).refine((v) => /^[a-z][a-z0-9_]*$/.test(v), 'must be lower-case letters, digits or _ starting with a letter'),
  label: text(100),
}) satisfies z.ZodType<PostTypeFields>;

/** A field's key names its value in a post's stored fields: never one of JavaScript's object internals. */
export const NewPostTypeField = z
  .object({
    postTypeId: id('post type'),
    key: text(40).refine(
      (v) => /^[a-zA-Z][a-zA-Z0-9_]*$/.test(v) && !RESERVED_KEYS.has(v),
      'must be letters, digits or _ starting with a letter (not a reserved name)',
    ),
    fieldType: oneOf(FIELD_TYPES),
    options: z.array(text(100)).nullish(),
    label: text(100),
    required: z.boolean().nullish(),
  })
  .refine((f) => f.fieldType !== 'select' || !!f.options?.length, {
    message: 'a select field needs options',
    path: ['options'],
  }) satisfies z.ZodType<PostTypeFieldFields>;
