import type { RequestContext } from '../../kernel/context.ts';

/** The company's calls of each legacy /connect/v1 route, most called first (ctx.query keeps it to the caller's company). */
export async function listLegacyUsage(ctx: RequestContext) {
  return ctx.all(ctx.query.selectFrom('kernel.legacy_usage').selectAll().orderBy('calls', 'desc').orderBy('route'));
}
