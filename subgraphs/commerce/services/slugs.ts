/** Slugs of catalog rows: an explicit one (409 naming the field when taken) or one made from the name. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, conflict } from '../../kernel/errors.ts';
import { freeSlug } from '../../kernel/slugs.ts';
import { normalizeSlug } from '../../kernel/validation.ts';

const SLUG = /^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+(?:-[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+)*$/u;

/**
 * The slug for a row. A concurrent write of the same slug is decided by the unique index
 * (company, slug): the flush fails and constraints.ts answers 409 naming `slug`.
 */
export async function chooseSlug(ctx: RequestContext, entity: any, options: { explicit?: string | null; name: string; exceptId?: string }): Promise<string> {
  if (options.explicit != null && options.explicit !== '') {
    const slug = normalizeSlug(options.explicit);
    if (slug.length > 120 || !SLUG.test(slug)) throw badInput('slug', 'must be lower-case letters or digits separated by single hyphens');
    const taken = await ctx.em.findOne(entity, { slug, ...(options.exceptId ? { id: { $ne: options.exceptId } } : {}) });
    if (taken) throw conflict(`The slug "${slug}" is already used`, { field: 'slug' });
    return slug;
  }
  return freeSlug(ctx.em, entity, options.name, { fallback: 'item', exceptId: options.exceptId });
}
