/** Segments: a static list of customers, or rules evaluated against the audience when used. */
import { LockMode } from '@mikro-orm/core';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { applyInput, field, type InputFields } from '../../kernel/inputs.ts';
import { pageRequest, type Page } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf, Tables } from '../../kernel/tables.ts';
import { oneOf, requireText } from '../../kernel/validation.ts';
import { CAMPAIGN_CHANNELS } from '../entities/campaign.ts';
import { Segment, type SegmentRules } from '../entities/segment.ts';
import { normalizeTag } from './audience.ts';

export type SegmentRow = RowOf<'campaigns.segment'>;

export interface RulesInput {
  tierId?: string | null;
  bookedSince?: Date | null;
  notBookedSince?: Date | null;
  minTotalSpent?: string | null;
  minOrders?: number | null;
  tag?: string | null;
  createdSince?: Date | null;
  reachableBy?: string | null;
}

export interface SegmentInput {
  name?: string | null;
  customerIds?: string[] | null;
  rules?: RulesInput | null;
}

const MAX_STATIC = 10_000;

function rulesOf(input: RulesInput): SegmentRules {
  const rules: SegmentRules = {};
  if (input.tierId != null) {
    if (!isUuid(input.tierId)) throw badInput('rules.tierId', 'must be a membership tier id');
    rules.tierId = input.tierId.toLowerCase();
  }
  if (input.bookedSince != null) rules.bookedSince = input.bookedSince.toISOString();
  if (input.notBookedSince != null) rules.notBookedSince = input.notBookedSince.toISOString();
  if (input.createdSince != null) rules.createdSince = input.createdSince.toISOString();
  if (input.minTotalSpent != null) {
    const spent = String(input.minTotalSpent).trim();
    if (!/^\d{1,12}(\.\d{1,3})?$/.test(spent)) throw badInput('rules.minTotalSpent', 'must be an amount in major units, such as "100" or "99.50"');
    rules.minTotalSpent = spent;
  }
  if (input.minOrders != null) {
    if (!Number.isInteger(input.minOrders) || input.minOrders < 1 || input.minOrders > 100_000) throw badInput('rules.minOrders', 'must be between 1 and 100000');
    rules.minOrders = input.minOrders;
  }
  if (input.tag != null) rules.tag = normalizeTag('rules.tag', input.tag);
  if (input.reachableBy != null) rules.reachableBy = oneOf('rules.reachableBy', input.reachableBy, CAMPAIGN_CHANNELS);
  if (!Object.keys(rules).length) throw badInput('rules', 'give at least one rule');
  return rules;
}

const SEGMENT_FIELDS: InputFields<Segment, SegmentInput> = { name: field.required((f, v) => requireText(f, v, 100)) };

/** The name, then either a static list of customers or rules (giving one clears the other). */
function apply(segment: Segment, input: SegmentInput, creating: boolean) {
  applyInput(segment, input, creating, SEGMENT_FIELDS);
  if (input.customerIds != null && input.rules != null) throw badInput('rules', 'give either customerIds or rules, not both');
  if (creating && input.customerIds == null && input.rules == null) throw badInput('rules', 'give customerIds (a static list) or rules');
  if (input.customerIds != null) {
    if (input.customerIds.length < 1 || input.customerIds.length > MAX_STATIC) throw badInput('customerIds', `must list 1 to ${MAX_STATIC} customer ids`);
    input.customerIds.forEach((id, i) => {
      if (!isUuid(id)) throw badInput(`customerIds[${i}]`, 'must be a customer id');
    });
    segment.customerIds = [...new Set(input.customerIds.map((id) => id.toLowerCase()))];
    segment.rules = null;
  }
  if (input.rules != null) {
    segment.rules = rulesOf(input.rules);
    segment.customerIds = null;
  }
}

export async function createSegment(ctx: RequestContext, input: SegmentInput): Promise<Segment> {
  return ctx.transaction(async (tx) => {
    const segment = tx.em.create(Segment, { id: newId(), name: '', customerIds: null, rules: null });
    apply(segment, input, true);
    return segment;
  });
}

export async function updateSegment(ctx: RequestContext, segmentId: unknown, input: SegmentInput): Promise<Segment> {
  if (!isUuid(segmentId)) throw badInput('segmentId', 'must be a segment id');
  return ctx.transaction(async (tx) => {
    const segment = await tx.em.findOne(Segment, { id: segmentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!segment) throw notFound('Segment');
    apply(segment, input, false);
    return segment;
  });
}

export async function findSegment(ctx: RequestContext, segmentId: unknown, field = 'segmentId'): Promise<SegmentRow> {
  if (!isUuid(segmentId)) throw badInput(field, 'must be a segment id');
  const segment = await ctx.find('campaigns.segment', segmentId);
  if (!segment) throw notFound('Segment');
  return segment;
}

export function listSegments(ctx: RequestContext, args: { page?: number | null; limit?: number | null; offset?: number | null }): Promise<Page<SegmentRow>> {
  return ctx.page(ctx.query.selectFrom('campaigns.segment').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc'), pageRequest(args));
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
      all.push(eb.not(eb.exists(eb.selectFrom('campaigns.suppression as s').select('s.customerId').whereRef('s.customerId', '=', 'a.customerId').where('s.channel', '=', channel))));
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
export async function memberCounts(ctx: RequestContext, segments: readonly Pick<Segment, 'id' | 'customerIds' | 'rules'>[]): Promise<Map<string, number>> {
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
export async function previewSegment(ctx: RequestContext, segmentId: unknown): Promise<{ segment: SegmentRow; count: number; customers: PreviewCustomer[] }> {
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
  return { segment, count: counts.get(segment.id) ?? 0, customers };
}
