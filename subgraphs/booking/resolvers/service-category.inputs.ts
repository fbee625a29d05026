/** The service category tool's input, checked before the service sees it. */
import { z } from 'zod';
import { text } from '../../kernel/schemas.ts';
import type { NewServiceCategory as CategoryFields } from '../services/service-categories.ts';

export const NewServiceCategory = z.object({ name: text(100) }) satisfies z.ZodType<CategoryFields>;
