/** Checks on ids given by a caller: well-formed and of this company, or 400 naming the field. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';
import { isUuid } from '../../kernel/ids.ts';

export async function requireOwn(ctx: RequestContext, entity: any, field: string, id: unknown, what: string): Promise<string> {
  if (!isUuid(id) || !(await ctx.em.findOne(entity, { id }, { fields: ['id'] as any }))) throw badInput(field, `is not ${what} of this company`);
  return id as string;
}

export async function requireOwnAll(ctx: RequestContext, entity: any, field: string, ids: unknown[], what: string): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.some((id) => !isUuid(id))) throw badInput(field, 'must be ids');
  const found = unique.length ? await ctx.em.find(entity, { id: { $in: unique } }, { fields: ['id'] as any }) : [];
  if (found.length !== unique.length) throw badInput(field, `contains ids that are not ${what} of this company`);
  return unique as string[];
}
