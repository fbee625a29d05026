/** The resource tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { id, text } from '../../kernel/schemas.ts';
import type { NewResource as ResourceFields } from '../services/resources.ts';

export const ResourceId = id('resource');

/** Types are kept in lower case ("room", "equipment"). */
export const NewResource = z.object({
  type: text(60).transform((v) => v.toLowerCase()),
  name: text(120),
}) satisfies z.ZodType<ResourceFields>;
