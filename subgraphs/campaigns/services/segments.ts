/** Segments: a static list of customers, or rules evaluated against the audience when used. */
import { LockMode } from '@mikro-orm/core';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { pageRequest, type Page } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf, Tables } from '../../kernel/tables.ts';
import { Segment, type SegmentRules } from '../entities/segment.ts';

export type SegmentRow = RowOf<'campaigns.segment'>;

/** A segment's fields as the edge checked them (resolvers/segment.inputs.ts); on a change, absent means unchanged. */
export interface SegmentChanges {
  name?: string | null;
  /** Customer ids in lower case, each once. */
  customerIds?: string[] | null;
  /** The rules given, none null. */
  rules?: SegmentRules | null;
}

/** A segment with how many customers it holds now. */
export interface CountedSegment {
  segment: Segment;
  memberCount: number;
}

/** The name, then either a static list of customers or rules (giving one clears the other). */
function apply(segment: Segment, input: SegmentChanges, creating: boolean) {
  applyChanges(segment, input, { set: ['name'] });
  if (input.customerIds != null && input.rules != null) throw badInput('rules', 'give either customerIds or rules, not both');
  if (creating && input.customerIds == null && input.rules == null) throw badInput('rules', 'give customerIds (a static list) or rules');
  if (input.customerIds != null) {
    segment.customerIds = input.customerIds;
    segment.rules = null;
  }
  if (input.rules != null) {
    if (!Object.keys(input.rules).length) throw badInput('rules', 'give at least one rule');
    segment.rules = input.rules;
    segment.customerIds = null;
  }
}

export async function createSegment(ctx: RequestContext, input: SegmentChanges): Promise<CountedSegment> {
  const segment = await ctx.transaction(async (tx) => {
    const segment = tx.em.create(Segment, { id: newId(), name: '', customerIds: null, rules: null });
    apply(segment, input, true);
    return segment;
  });
  return (await counted(ctx, [segment]))[0];
}

export async function updateSegment(ctx: RequestContext, segmentId: string, input: SegmentChanges): Promise<CountedSegment> {
  const segment = await ctx.transaction(async (tx) => {
    const segment = await tx.em.findOne(Segment, { id: segmentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!segment) throw notFound('Segment');
    apply(segment, input, false);
    return segment;
  });
  return (await counted(ctx, [segment]))[0];
}

export async function findSegment(ctx: RequestContext, segmentId: string): Promise<SegmentRow> {
  const segment = await ctx.find('campaigns.segment', segmentId);
  if (!segment) throw notFound('Segment');
  return segment;
}

/** The company's segments, newest first, each with its member count (one statement for the page). */
export async function listSegments(
  ctx: RequestContext,
  args: { page?: number | null; limit?: number | null; offset?: number | null },
): Promise<Page<CountedSegment>> {
  const page = await ctx.page(ctx.query.selectFrom('campaigns.segment').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc'), pageRequest(args));
  return { ...page, items: await counted(ctx, page.items) };
}

/** Segments with their member counts now: one statement for all. */
async function counted(ctx: RequestContext, segments: readonly CountedSegment['segment'][]): Promise<CountedSegment[]> {
  const counts = await memberCounts(ctx, segments);
  return segments.map((segment) => ({ segment, memberCount: counts.get(segment.id) ?? 0 }));
}

/** A condition on the audience, named `a` in the statement. */
export type AudienceCondition = (eb: ExpressionBuilder<Tables & { a: Tables['campaigns.audience'] }, 'a'>) => Expression<SqlBool>;

/** The condition (on the audience as `a`) a segment's members meet, read at the moment they are asked for. */
export function membersWhere(segment: Pick<Segment, 'customerIds' | 'rules'>): AudienceCondition {
  return (eb) => {
    if (segment.customerIds) return eb('a.customerId', '=', anyOf(segment.customerIds));
    const r = segment.rules ?? {};
    const all: Expression<SqlBool>[] = [];
    if (r.tierId) all.push(eb('a.tierId', '=', r.tierId));
    if (r.bookedSince) all.push(eb('a.lastBookedAt', '>=', new Date(r.bookedSince)));
    if (r.notBookedSince) all.push(eb.or([eb('a.lastBookedAt', 'is', null), eb('a.lastBookedAt', '<', new Date(r.notBookedSince))]));
    if (r.minTotalSpent != null) all.push(eb('a.spent', '>=', eb.cast<string>(eb.val(r.minTotalSpent), 'numeric')));
    if (r.minOrders != null) all.push(eb('a.ordersCount', '>=', r.minOrders));
    if (r.tag) all.push(eb('a.tags', '@>', sql<string[]>`array[${r.tag}]::text[]`));
    if (r.createdSince) all.push(eb('a.createdAt', '>=', new Date(r.createdSince)));
    if (r.reachableBy) {
      const channel = r.reachableBy;
      all.push(eb(channel === 'email' ? 'a.email' : 'a.phone', 'is not', null));
      all.push(
        eb.not(
          eb.exists(
            eb.selectFrom('campaigns.suppression as s').select('s.customerId').whereRef('s.customerId', '=', 'a.customerId').where('s.channel', '=', channel),
          ),
        ),
      );
    }
    return eb.and(all);
  };
}

/**
 * The audience as `a`, limited to a segment's members, selected from `db`: `ctx.query`, or inside
 * another statement the expression builder it gives (a `ctx.query` select put inside another
 * statement of `ctx.query` would pass through its plugins twice).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the expression builder of any enclosing statement
export const membersOf = (db: Kysely<Tables> | ExpressionBuilder<any, any>, segment: Pick<Segment, 'customerIds' | 'rules'>) =>
  (db as Kysely<Tables>).selectFrom('campaigns.audience as a').where(membersWhere(segment));

/** How many customers each segment has now: one statement for the page. */
async function memberCounts(ctx: RequestContext, segments: readonly Pick<Segment, 'id' | 'customerIds' | 'rules'>[]): Promise<Map<string, number>> {
  if (!segments.length) return new Map();
  const counted = (db: Parameters<typeof membersOf>[0], segment: (typeof segments)[number]) =>
    membersOf(db, segment).select((eb) => [eb.cast<string>(eb.val(segment.id), 'uuid').as('id'), eb.fn.countAll().as('n')]);
  const [first, ...rest] = segments;
  const rows = await ctx.all(rest.reduce((union, segment) => union.unionAll((eb) => counted(eb, segment)), counted(ctx.query, first)));
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

export interface PreviewCustomer {
  customerId: string;
  firstName: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
}

/** A segment's size now and its first 20 customers (by name). */
export async function previewSegment(
  ctx: RequestContext,
  segmentId: string,
): Promise<{ segment: CountedSegment; count: number; customers: PreviewCustomer[] }> {
  const segment = await findSegment(ctx, segmentId);
  const [counts, customers] = await Promise.all([
    memberCounts(ctx, [segment]),
    ctx.all(
      membersOf(ctx.query, segment)
        .select(['a.customerId', 'a.firstName', 'a.lastName', 'a.email', 'a.phone'])
        .orderBy('a.firstName')
        .orderBy('a.lastName', (ob) => ob.asc().nullsFirst())
        .orderBy('a.customerId')
        .limit(20),
    ),
  ]);
  const count = counts.get(segment.id) ?? 0;
  return { segment: { segment, memberCount: count }, count, customers };
}
