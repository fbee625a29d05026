import type { RequestContext } from '../../kernel/context.ts';
import { violatedConstraint } from '../../kernel/constraints.ts';
import { badInput, conflict } from '../../kernel/errors.ts';
import { freeSlug } from '../../kernel/slugs.ts';
import { normalizeSlug } from '../../kernel/validation.ts';
import { SLUG_CONSTRAINTS } from '../constraints.ts';

const SLUG = /^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+(?:-[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+)*$/u;

/** Keys that would collide with JavaScript object internals in stored JSON. */
export const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A slug for a titled row: the explicit one (409 when taken) or one made from the title,
 * readable in any script and made unique with -2, -3…
 */
export async function chooseSlug(
  ctx: RequestContext,
  entity: any,
  options: { explicit?: string | null; title: string; field?: string; exceptId?: string },
): Promise<string> {
  const field = options.field ?? 'slug';
  if (options.explicit != null && options.explicit !== '') {
    const slug = normalizeSlug(options.explicit);
    if (slug.length > 120 || !SLUG.test(slug)) throw badInput(field, 'must be lower-case letters or digits separated by single hyphens');
    const taken = await ctx.em.findOne(entity, { slug, ...(options.exceptId ? { id: { $ne: options.exceptId } } : {}) });
    if (taken) throw conflict(`The slug "${slug}" is already used`, { field });
    return slug;
  }
  return freeSlug(ctx.em, entity, options.title, { fallback: 'untitled', exceptId: options.exceptId });
}

const SAVEPOINT = 'content_slug';

/**
 * Flushes a new titled row in the transaction. The unique index on (company, slug) decides races:
 * the flush runs under a savepoint, and when a concurrent insert took a generated slug first, it
 * is rolled back to it, the next free slug chosen and the flush retried. An explicit slug that is
 * taken (or a sixth collision) leaves the violation to the transaction, which answers 409 naming
 * the field (content's constraint table).
 */
export async function flushWithSlug(ctx: RequestContext, entity: any, row: { id: string; slug: string }, options: { explicit?: string | null; title: string }): Promise<void> {
  await ctx.transaction(async (tx) => {
    for (let attempt = 0; ; attempt++) {
      await tx.sql(`savepoint ${SAVEPOINT}`);
      try {
        await tx.em.flush();
        await tx.sql(`release savepoint ${SAVEPOINT}`);
        return;
      } catch (error) {
        await tx.sql(`rollback to savepoint ${SAVEPOINT}`);
        const constraint = violatedConstraint(error);
        if (!constraint || !SLUG_CONSTRAINTS.includes(constraint) || options.explicit || attempt >= 5) throw error;
        row.slug = await chooseSlug(tx, entity, { title: options.title, exceptId: row.id });
      }
    }
  });
}
