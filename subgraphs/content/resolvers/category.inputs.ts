/** The category tools' inputs, checked before the service sees them. */
import { z } from 'zod';
import { text } from '../../kernel/schemas.ts';
import type { CategoryFields } from '../services/categories.ts';

/** The slug, when given, is checked where it is chosen (kernel/slugs.ts: format, then whether it is free). */
export const NewCategory = z.object({ name: text(100), slug: z.string().nullish() }) satisfies z.ZodType<CategoryFields>;
