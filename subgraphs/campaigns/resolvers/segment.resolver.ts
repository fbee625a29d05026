import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { PageArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import { tagCustomers } from '../services/audience.ts';
import * as segments from '../services/segments.ts';
import type { CountedSegment } from '../services/segments.ts';
import { NewSegment, SegmentId, SegmentUpdate, TagChangesInput } from './segment.inputs.ts';
import { SegmentInput, SegmentNode, SegmentPage, SegmentPreviewNode } from './segment.types.ts';

/** A segment as its node, with how many customers it holds now. */
const segmentNode = ({ segment: s, memberCount }: CountedSegment): SegmentNode => ({
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
  memberCount,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

/** Customer segments and tags: the merchant's audiences for campaigns. */
@Resolver(() => SegmentNode)
export class SegmentResolver {
  @Requires('merchant', 'campaigns')
  @Query(() => SegmentPage, { description: "The company's customer segments, newest first, with how many customers each holds now." })
  async customerSegments(@Ctx() ctx: RequestContext, @Args(() => PageArgs) args: PageArgs) {
    const page = await segments.listSegments(ctx, args);
    return { ...page, items: page.items.map(segmentNode) };
  }

  @Requires('merchant', 'campaigns')
  @Query(() => SegmentPreviewNode, { description: 'A segment as it is now: its size and first 20 customers.' })
  async segmentPreview(@Ctx() ctx: RequestContext, @Arg('segmentId', () => ID, { description: 'The segment.' }) segmentId: string) {
    const preview = await segments.previewSegment(ctx, parse(SegmentId, segmentId, 'segmentId'));
    return { segment: segmentNode(preview.segment), count: preview.count, customers: preview.customers };
  }

  @Requires('merchant', 'campaigns')
  @Mutation(() => SegmentNode, { description: 'Creates a segment: a static list of customers or rules (evaluated when a campaign starts sending).' })
  async createCustomerSegment(@Ctx() ctx: RequestContext, @Arg('input', () => SegmentInput, { description: 'The segment.' }) input: SegmentInput) {
    return segmentNode(await segments.createSegment(ctx, parse(NewSegment, input)));
  }

  @Requires('merchant', 'campaigns')
  @Mutation(() => SegmentNode, { description: 'Changes a segment: its name, or its customers or rules (giving one replaces the other).' })
  async updateCustomerSegment(
    @Ctx() ctx: RequestContext,
    @Arg('segmentId', () => ID, { description: 'The segment to change.' }) segmentId: string,
    @Arg('input', () => SegmentInput, { description: 'The fields to change.' }) input: SegmentInput,
  ) {
    return segmentNode(await segments.updateSegment(ctx, parse(SegmentId, segmentId, 'segmentId'), parse(SegmentUpdate, input)));
  }

  @Requires('merchant', 'customers')
  @Mutation(() => Int, { description: 'Adds and removes tags on customers (for segments); answers how many customers were found.' })
  async tagCustomers(
    @Ctx() ctx: RequestContext,
    @Arg('customerIds', () => [ID], { description: 'The customers, 1 to 1000.' }) customerIds: string[],
    @Arg('add', () => [String], { nullable: true, description: 'Tags to add (lower-cased).' }) add?: string[],
    @Arg('remove', () => [String], { nullable: true, description: 'Tags to remove.' }) remove?: string[],
  ) {
    return tagCustomers(ctx, parse(TagChangesInput, { customerIds, add, remove }));
  }
}
