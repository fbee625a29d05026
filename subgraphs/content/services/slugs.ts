import { sql } from 'kysely';
import type { RequestContext } from '../../kernel/context.ts';
import { violatedConstraint } from '../../kernel/constraints.ts';
import { freeSlug } from '../../kernel/slugs.ts';
import { SLUG_CONSTRAINTS } from '../constraints.ts';

/** A titled row named by its id or by its slug (events and surveys are found either way). */
export type IdOrSlug = { id: string } | { slug: string };

/** Keys that would collide with JavaScript object internals in stored JSON. */
export const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const SAVEPOINT = 'content_slug';
const savepoint = (tx: RequestContext, command: 'savepoint' | 'release savepoint' | 'rollback to savepoint') =>
  sql.raw(`${command} ${SAVEPOINT}`).execute(tx.query);

/**
 * Flushes a new titled row in the transaction. The unique index on (company, slug) decides races:
 * the flush runs under a savepoint, and when a concurrent insert took a generated slug first, it
 * is rolled back to it, the next free slug chosen and the flush retried. An explicit slug that is
 * taken (or a sixth collision) leaves the violation to the transaction, which answers 409 naming
 * the field (content's constraint table).
 */
export async function flushWithSlug(
  ctx: RequestContext,
  table: Parameters<typeof freeSlug>[1],
  row: { id: string; slug: string },
  options: { explicit?: string | null; title: string },
): Promise<void> {
  await ctx.transaction(async (tx) => {
    for (let attempt = 0; ; attempt++) {
      await savepoint(tx, 'savepoint');
      try {
        await tx.em.flush();
        await savepoint(tx, 'release savepoint');
        return;
      } catch (error) {
        await savepoint(tx, 'rollback to savepoint');
        const constraint = violatedConstraint(error);
        if (!constraint || !SLUG_CONSTRAINTS.includes(constraint) || options.explicit || attempt >= 5) throw error;
        row.slug = await freeSlug(tx, table, options.title, { fallback: 'untitled', exceptId: row.id });
      }
    }
  });
}
