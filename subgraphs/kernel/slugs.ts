import type { EntityManager } from '@mikro-orm/postgresql';
import { slugify } from './validation.ts';

/**
 * The first free slug made from a text among an entity's rows (in the caller's tenant scope):
 * the slugified text, then -2, -3…
 */
export async function freeSlug(em: EntityManager, entity: any, text: string, options: { fallback: string; exceptId?: string }): Promise<string> {
  const base = slugify(text) || options.fallback;
  const rows: { slug: string }[] = await em.find(entity, { slug: { $like: `${base}%` }, ...(options.exceptId ? { id: { $ne: options.exceptId } } : {}) }, { fields: ['slug'] });
  const taken = new Set(rows.map((r) => r.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}
