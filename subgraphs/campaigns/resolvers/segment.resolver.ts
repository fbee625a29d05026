import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { PageArgs } from '../../kernel/pagination.ts';
import type { Segment } from '../entities/segment.ts';
import { tagCustomers } from '../services/audience.ts';
import * as segments from '../services/segments.ts';
import { SegmentInput, SegmentNode, SegmentPage, SegmentPreviewNode } from './segment.types.ts';

/** Segments as nodes, with their member counts now (one statement for all). */
async function segmentNodes(ctx: RequestContext, rows: readonly Segment[]): Promise<SegmentNode[]> {
  const counts = await segments.memberCounts(ctx, rows);
  return rows.map((s) => ({
    id: s.id,
    name: s.name,
    kind: s.customerIds ? 'static' : 'rules',
    customerIds: s.customerIds ?? null,
    rules: s.rules
      ? {
          tierId: s.rules.tierId ?? null,
          bookedSince: s.rules.bookedSince ? new Date(s.rules.bookedSince) : null,
          notBookedSince: s.rules.notBookedSince ? new Date(s.rules.notBookedSince) : null,
          minTotalSpent: s.rules.minTotalSpent ?? null,
          minOrders: s.rules.minOrders ?? null,
          tag: s.rules.tag ?? null,
          createdSince: s.rules.createdSince ? new Date(s.rules.createdSince) : null,
          reachableBy: s.rules.reachableBy ?? null,
        }
      : null,
    memberCount: counts.get(s.id) ?? 0,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  }));
}

/** Customer segments and tags: the merchant's audiences for campaigns. */
@Resolver(() => SegmentNode)
export class SegmentResolver {
  @Requires('merchant')
  @Query(() => SegmentPage, { description: "The company's customer segments, newest first, with how many customers each holds now." })
  async customerSegments(@Ctx() ctx: RequestContext, @Args(() => PageArgs) args: PageArgs) {
    const page = await segments.listSegments(ctx, args);
    return { ...page, items: await segmentNodes(ctx, page.items) };
  }

  @Requires('merchant')
  @Query(() => SegmentPreviewNode, { description: 'A segment as it is now: its size and first 20 customers.' })
  async segmentPreview(@Ctx() ctx: RequestContext, @Arg('segmentId', () => ID, { description: 'The segment.' }) segmentId: string) {
    const preview = await segments.previewSegment(ctx, segmentId);
    const [segment] = await segmentNodes(ctx, [preview.segment]);
    return {
      segment: { ...segment, memberCount: preview.count },
      count: preview.count,
      customers: preview.customers,
    };
  }

  @Requires('merchant')
  @Mutation(() => SegmentNode, { description: 'Creates a segment: a static list of customers or rules (evaluated when a campaign starts sending).' })
  async createCustomerSegment(@Ctx() ctx: RequestContext, @Arg('input', () => SegmentInput, { description: 'The segment.' }) input: SegmentInput) {
    return (await segmentNodes(ctx, [await segments.createSegment(ctx, input)]))[0];
  }

  @Requires('merchant')
  @Mutation(() => SegmentNode, { description: 'Changes a segment: its name, or its customers or rules (giving one replaces the other).' })
  async updateCustomerSegment(
    @Ctx() ctx: RequestContext,
    @Arg('segmentId', () => ID, { description: 'The segment to change.' }) segmentId: string,
    @Arg('input', () => SegmentInput, { description: 'The fields to change.' }) input: SegmentInput,
  ) {
    return (await segmentNodes(ctx, [await segments.updateSegment(ctx, segmentId, input)]))[0];
  }

  @Requires('merchant')
  @Mutation(() => Int, { description: 'Adds and removes tags on customers (for segments); answers how many customers were found.' })
  async tagCustomers(
    @Ctx() ctx: RequestContext,
    @Arg('customerIds', () => [ID], { description: 'The customers, 1 to 1000.' }) customerIds: string[],
    @Arg('add', () => [String], { nullable: true, description: 'Tags to add (lower-cased).' }) add?: string[],
    @Arg('remove', () => [String], { nullable: true, description: 'Tags to remove.' }) remove?: string[],
  ) {
    return tagCustomers(ctx, { customerIds, add, remove });
  }
}
