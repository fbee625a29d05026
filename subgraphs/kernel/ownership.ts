/** Checks on ids a caller gives: well-formed and of the caller's company (ctx.query's tenancy), or 400 naming the field. */
import type { Kysely } from 'kysely';
import type { RequestContext } from './context.ts';
import { badInput } from './errors.ts';
import { isUuid } from './ids.ts';
import { anyOf } from './query.ts';
import type { Tables } from './tables.ts';

/** Tables whose rows have an id. */
type WithId = { [T in keyof Tables]: Tables[T] extends { id: unknown } ? T : never }[keyof Tables];
const ids = (ctx: RequestContext, table: WithId) => (ctx.query as unknown as Kysely<Record<string, { id: string }>>).selectFrom(table).select('id');

/** The id of a row of this company, or 400 naming `field`: "is not `what` of this company" (`what` as "a product"). */
export async function requireOwn(ctx: RequestContext, table: WithId, field: string, id: unknown, what: string): Promise<string> {
  if (!isUuid(id) || !(await ctx.first(ids(ctx, table).where('id', '=', id)))) throw badInput(field, `is not ${what} of this company`);
  return id;
}

/** The ids (each once, in the order given) of rows of this company, or 400 naming `field` (`what` as "products"). */
export async function requireOwnAll(ctx: RequestContext, table: WithId, field: string, given: readonly unknown[], what: string): Promise<string[]> {
  const unique = [...new Set(given)];
  if (!unique.every(isUuid)) throw badInput(field, 'must be ids');
  const found = unique.length ? await ctx.all(ids(ctx, table).where('id', '=', anyOf(unique))) : [];
  if (found.length !== unique.length) throw badInput(field, `contains ids that are not ${what} of this company`);
  return unique;
}
