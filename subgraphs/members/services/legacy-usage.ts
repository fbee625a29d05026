import type { RequestContext } from '../../kernel/context.ts';

/**
 * The company's calls of each legacy /connect/v1 route, most called first (ctx.query keeps it to
 * the caller's company), with the dates the routes were deprecated and stop answering.
 */
export async function legacyUsage(ctx: RequestContext) {
  const routes = await ctx.all(ctx.query.selectFrom('kernel.legacy_usage').selectAll().orderBy('calls', 'desc').orderBy('route'));
  const { deprecatedAt, sunsetAt } = ctx.config.legacy;
  return { routes, deprecatedAt, sunsetAt };
}
