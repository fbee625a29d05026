import type { RequestContext } from '../../kernel/context.ts';
import { LegacyUsage } from '../../kernel/legacy-usage.ts';

/** The company's calls of each legacy /connect/v1 route, most called first (the tenant filter keeps it to the caller's company). */
export async function listLegacyUsage(ctx: RequestContext) {
  return ctx.em.find(LegacyUsage, {}, { orderBy: { calls: 'desc', route: 'asc' } });
}
