/** The API key tools' inputs, checked before the service sees them. */
import { z } from 'zod';
import { isUuid } from '../../kernel/ids.ts';
import { text } from '../../kernel/schemas.ts';
import type { NewApiKey } from '../services/api-keys.ts';

export const ApiKeyId = z.string().refine(isUuid, 'must be an API key id');

export const NewApiKeyInput = z.object({ name: text(100) }) satisfies z.ZodType<NewApiKey>;
