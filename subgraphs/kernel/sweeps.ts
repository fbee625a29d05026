import type { Kysely, SelectQueryBuilder } from 'kysely';
import { RequestContext } from './context.ts';
import { queryAcrossTenants } from './query.ts';
import type { Tables } from './tables.ts';

/**
 * A scheduled sweep, the backstop of per-row jobs (an order's expiry, a payment window, a lot of
 * points): the due rows of the job's company (`data.companyId`) or, without one, of every company,
 * each handled in a context scoped to its own company. `due` selects `companyId` and what `each`
 * needs, ordered and limited, with the builder it is given: scoped to the job's company when it
 * names one, across every company when it does not. Answers how many rows `each` acted on.
 */
export async function sweepDue<R extends { companyId: string }>(
  ctx: RequestContext,
  data: Record<string, unknown>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a select of any table
  due: (query: Kysely<Tables>, now: Date) => SelectQueryBuilder<any, any, R>,
  each: (scoped: RequestContext, row: R) => Promise<boolean>,
): Promise<number> {
  const company = typeof data.companyId === 'string' ? data.companyId : null;
  const query = company ? RequestContext.system(ctx.runtime, company).query : queryAcrossTenants(ctx.em).query;
  const rows = await due(query, ctx.now()).execute();
  let acted = 0;
  for (const row of rows) if (await each(RequestContext.system(ctx.runtime, row.companyId), row)) acted++;
  return acted;
}
