import type { EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, conflict } from './errors.ts';
import { normalizeSlug, slugify } from './validation.ts';

/** A row with a slug unique in its company (a unique index on (company, slug)). */
interface Slugged {
  id: string;
  slug: string;
}

/** Lower-case letters or digits of any script, separated by single hyphens. */
const SLUG = /^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+(?:-[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+)*$/u;

/**
 * The first free slug made from a text among an entity's rows (in the caller's tenant scope):
 * the slugified text, then -2, -3…
 */
export async function freeSlug<T extends Slugged>(em: EntityManager, entity: EntityName<T>, text: string, options: { fallback: string; exceptId?: string }): Promise<string> {
  const base = slugify(text) || options.fallback;
  const rows = await em.find(entity as EntityName<Slugged>, { slug: { $like: `${base}%` }, ...(options.exceptId ? { id: { $ne: options.exceptId } } : {}) }, { fields: ['slug'] });
  const taken = new Set(rows.map((r) => r.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

/**
 * The slug for a row: the explicit one, checked (400 naming `slug`) and free (409 naming `slug`
 * when another row has it), or else the first free one made from `text` (`fallback` when the
 * text has no letters or digits). A concurrent write of the same slug is decided by the unique
 * index: the flush fails and the subgraph's constraint table answers 409 naming `slug` (content
 * retries a generated one: content/services/slugs.ts).
 */
export async function chooseSlug<T extends Slugged>(
  em: EntityManager,
  entity: EntityName<T>,
  options: { explicit?: string | null; text: string; fallback: string; exceptId?: string },
): Promise<string> {
  if (options.explicit == null || options.explicit === '') return freeSlug(em, entity, options.text, { fallback: options.fallback, exceptId: options.exceptId });
  const slug = normalizeSlug(options.explicit);
  if (slug.length > 120 || !SLUG.test(slug)) throw badInput('slug', 'must be lower-case letters or digits separated by single hyphens');
  const taken = await em.findOne(entity as EntityName<Slugged>, { slug, ...(options.exceptId ? { id: { $ne: options.exceptId } } : {}) });
  if (taken) throw conflict(`The slug "${slug}" is already used`, { field: 'slug' });
  return slug;
}
