import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, conflict } from '../../kernel/errors.ts';
import { slugify } from '../../kernel/validation.ts';

const SLUG = /^[\p{Ll}\p{Lo}\p{N}]+(?:-[\p{Ll}\p{Lo}\p{N}]+)*$/u;

/**
 * A slug for a titled row: the explicit one (409 when taken) or one made from the title,
 * readable in any script and made unique with -2, -3…
 */
export async function chooseSlug(
  em: EntityManager,
  entity: any,
  options: { explicit?: string | null; title: string; field?: string; exceptId?: string },
): Promise<string> {
  const field = options.field ?? 'slug';
  if (options.explicit != null && options.explicit !== '') {
    const slug = options.explicit.trim().toLowerCase();
    if (slug.length > 120 || !SLUG.test(slug)) throw badInput(field, 'must be lower-case letters or digits separated by single hyphens');
    const taken = await em.findOne(entity, { slug, ...(options.exceptId ? { id: { $ne: options.exceptId } } : {}) });
    if (taken) throw conflict(`The slug "${slug}" is already used`, { field });
    return slug;
  }
  const base = slugify(options.title) || 'untitled';
  const rows: { slug: string }[] = await em.find(entity, { slug: { $like: `${base}%` }, ...(options.exceptId ? { id: { $ne: options.exceptId } } : {}) }, { fields: ['slug'] });
  const taken = new Set(rows.map((r) => r.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}
