import { Ctx, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { legacyUsage } from '../services/legacy-usage.ts';
import { LegacyUsageNode } from './legacy-usage.types.ts';

/** The merchant's view of their legacy route calls, to decide a sunset on data. */
@Resolver()
export class LegacyUsageResolver {
  @Requires('merchant', 'account')
  @Query(() => LegacyUsageNode, { description: "The company's calls of the legacy /connect/v1 routes per route, and their deprecation and sunset dates." })
  async legacyUsage(@Ctx() ctx: RequestContext): Promise<LegacyUsageNode> {
    const usage = await legacyUsage(ctx);
    return {
      ...usage,
      routes: usage.routes.map((r) => ({ route: r.route, calls: Number(r.calls), firstCalledAt: r.firstCalledAt, lastCalledAt: r.lastCalledAt })),
    };
  }
}
