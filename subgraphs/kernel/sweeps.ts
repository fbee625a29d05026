import { RequestContext } from './context.ts';

/**
 * A scheduled sweep, the backstop of per-row jobs (an order's expiry, a payment window, a lot of
 * points): the due rows of the job's company (`data.companyId`) or, without one, of every company,
 * each handled in a context scoped to its own company. `select` reads `company_id` and what `each`
 * needs from one table, its last condition comparing with `?` (the context's clock); the sweep
 * adds the company, the order and the limit. Answers how many rows `each` acted on.
 */
export async function sweepDue<T extends { company_id: string }>(
  ctx: RequestContext,
  data: Record<string, unknown>,
  due: { select: string; orderBy: string; limit: number },
  each: (scoped: RequestContext, row: T) => Promise<boolean>,
): Promise<number> {
  const company = typeof data.companyId === 'string' ? data.companyId : null;
  const rows = await ctx.sql<T>(`${due.select}${company ? ' and company_id = ?' : ''} order by ${due.orderBy} limit ${due.limit}`, company ? [ctx.now(), company] : [ctx.now()], {
    acrossTenants: true,
  });
  let acted = 0;
  for (const row of rows) if (await each(RequestContext.system(ctx.runtime, row.company_id), row)) acted++;
  return acted;
}
