/** How content's tools name a titled row: by id or by slug. */
import { isUuid } from '../../kernel/ids.ts';
import { text } from '../../kernel/schemas.ts';
import { normalizeSlug } from '../../kernel/validation.ts';
import type { IdOrSlug } from '../services/slugs.ts';

/** A UUID is an id, anything else a slug (compared as slugify stores it). */
export const idOrSlug = () => text(200).transform((key): IdOrSlug => (isUuid(key) ? { id: key } : { slug: normalizeSlug(key) }));
