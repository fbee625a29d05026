import type { Kysely } from 'kysely';
import type { RequestContext } from './context.ts';
import { badInput, conflict } from './errors.ts';
import type { Tables } from './tables.ts';
import { normalizeSlug, slugify } from './validation.ts';

/** Tables whose rows have a slug unique in their company (a unique index on (company, slug)). */
type Slugged = { [T in keyof Tables]: Tables[T] extends { id: unknown; slug: unknown } ? T : never }[keyof Tables];

/** The slugs of a table's rows but one (`exceptId`). */
function slugs(ctx: RequestContext, table: Slugged, exceptId: string | undefined) {
  const select = (ctx.query as unknown as Kysely<Record<string, { id: string; slug: string }>>).selectFrom(table).select('slug');
  return exceptId ? select.where('id', '<>', exceptId) : select;
}

/** Lower-case letters or digits of any script, separated by single hyphens. */
const SLUG = /^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+(?:-[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+)*$/u;

/**
 * The first free slug made from a text among an entity's rows (in the caller's tenant scope):
 * the slugified text, then -2, -3…
 */
export async function freeSlug(ctx: RequestContext, table: Slugged, text: string, options: { fallback: string; exceptId?: string }): Promise<string> {
  const base = slugify(text) || options.fallback;
  // A slug is letters, digits and hyphens: nothing in it is a pattern character of `like`.
  const rows = await ctx.all(slugs(ctx, table, options.exceptId).where('slug', 'like', `${base}%`));
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
export async function chooseSlug(
  ctx: RequestContext,
  table: Slugged,
  options: { explicit?: string | null; text: string; fallback: string; exceptId?: string },
): Promise<string> {
  if (options.explicit == null || options.explicit === '')
    return freeSlug(ctx, table, options.text, { fallback: options.fallback, exceptId: options.exceptId });
  const slug = normalizeSlug(options.explicit);
  if (slug.length > 120 || !SLUG.test(slug)) throw badInput('slug', 'must be lower-case letters or digits separated by single hyphens');
  const taken = await ctx.first(slugs(ctx, table, options.exceptId).where('slug', '=', slug));
  if (taken) throw conflict(`The slug "${slug}" is already used`, { field: 'slug' });
  return slug;
}
