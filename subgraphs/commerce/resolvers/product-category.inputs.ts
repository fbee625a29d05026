/** The product category tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { clearableText, id, text } from '../../kernel/schemas.ts';
import type { CategoryChanges } from '../services/categories.ts';

export const CategoryId = id('product category');

/** Changes: absent fields stay as they are; null clears the description and the parent, and leaves the name as it is. */
export const CategoryUpdate = z.object({
  name: text(100).nullish(),
  // Checked against the table's other slugs by chooseSlug (kernel/slugs.ts): given as it is.
  slug: z.string().nullish(),
  description: clearableText(2000),
  parentId: CategoryId.nullish(),
}) satisfies z.ZodType<CategoryChanges>;

/** A new category; an empty parentId puts it at the top level, as null does. */
export const NewCategory = CategoryUpdate.extend({
  name: text(100),
  parentId: z.preprocess((v) => (v === '' ? null : v), CategoryId.nullish()),
}) satisfies z.ZodType<CategoryChanges & { name: string }>;
