/** The API key tools' inputs, checked before the service sees them. */
import { z } from 'zod';
import { isUuid } from '../../kernel/ids.ts';
import { oneOf, text } from '../../kernel/schemas.ts';
import { ALL_SCOPES, type Scope } from '../../kernel/scopes.ts';
import { TOOLSET_NAMES, type Toolset } from '../../kernel/toolsets.ts';
import type { NewApiKey } from '../services/api-keys.ts';

export const ApiKeyId = z.string().refine(isUuid, 'must be an API key id');

const lower = (v: string) => v.trim().toLowerCase();

/** A key's scopes (default every scope, as keys had before they had scopes) and MCP defaults. */
export const NewApiKeyInput = z.object({
  name: text(100),
  scopes: z
    .array(oneOf(ALL_SCOPES as readonly [Scope, ...Scope[]], lower))
    .min(1, 'must list at least one scope ("*" for all)')
    .max(ALL_SCOPES.length)
    .nullish()
    .transform((v): Scope[] => [...new Set(v ?? ['*' as const])]),
  toolsets: z
    .array(oneOf(TOOLSET_NAMES as unknown as readonly [Toolset, ...Toolset[]], lower))
    .min(1, 'must list at least one toolset, or be left out for all')
    .max(TOOLSET_NAMES.length)
    .nullish()
    .transform((v) => (v ? [...new Set(v)] : null)),
  readOnly: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
}) satisfies z.ZodType<NewApiKey, unknown>;
