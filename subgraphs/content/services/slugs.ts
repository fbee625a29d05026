import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, conflict, pgErrorCode, PG_UNIQUE_VIOLATION } from '../../kernel/errors.ts';
import { freeSlug } from '../../kernel/slugs.ts';
import { normalizeSlug } from '../../kernel/validation.ts';

const SLUG = /^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+(?:-[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+)*$/u;

/** Keys that would collide with JavaScript object internals in stored JSON. */
export const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

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
    const slug = normalizeSlug(options.explicit);
    if (slug.length > 120 || !SLUG.test(slug)) throw badInput(field, 'must be lower-case letters or digits separated by single hyphens');
    const taken = await em.findOne(entity, { slug, ...(options.exceptId ? { id: { $ne: options.exceptId } } : {}) });
    if (taken) throw conflict(`The slug "${slug}" is already used`, { field });
    return slug;
  }
  return freeSlug(em, entity, options.title, { fallback: 'untitled', exceptId: options.exceptId });
}

/**
 * Flushes a new titled row. The unique index on (company, slug) decides races: when a concurrent
 * insert took a generated slug first, the next free one is chosen and the flush retried; an
 * explicit slug that is taken answers 409 naming the field.
 */
export async function flushWithSlug(em: EntityManager, entity: any, row: { id: string; slug: string }, options: { explicit?: string | null; title: string; field?: string }): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await em.flush();
      return;
    } catch (error: any) {
      if (pgErrorCode(error) !== PG_UNIQUE_VIOLATION || !String(error.constraint ?? error.message).includes('slug')) throw error;
      if (options.explicit || attempt >= 5) throw conflict(`The slug "${row.slug}" is already used`, { field: options.field ?? 'slug' });
      row.slug = await chooseSlug(em, entity, { title: options.title, exceptId: row.id });
    }
  }
}
