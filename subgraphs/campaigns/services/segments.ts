/** Segments: a static list of customers, or rules evaluated against the audience when used. */
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { applyInput, field, type InputFields } from '../../kernel/inputs.ts';
import { pageRequest, type Page } from '../../kernel/pagination.ts';
import type { Row } from '../../kernel/reads.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import { oneOf, requireText } from '../../kernel/validation.ts';
import { CAMPAIGN_CHANNELS } from '../entities/campaign.ts';
import { Segment, type SegmentRules } from '../entities/segment.ts';
import { normalizeTag } from './audience.ts';
import { sql, type Statement } from './sql.ts';

export type SegmentRow = Row<Segment>;

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
  const segment = await ctx.byId(Segment, segmentId);
  if (!segment) throw notFound('Segment');
  return segment;
}

export function listSegments(ctx: RequestContext, args: { page?: number | null; limit?: number | null; offset?: number | null }): Promise<Page<SegmentRow>> {
  return ctx.page(Segment, {}, pageRequest(args), { createdAt: 'desc', id: 'desc' });
}

/**
 * The conditions (on the audience as `a`, after `a.company_id = COMPANY`) a segment's members meet,
 * read at the moment they are asked for.
 */
export function membersWhere(segment: Pick<SegmentRow, 'customerIds' | 'rules'>): Statement {
  const where = sql();
  if (segment.customerIds) return where.text(' and a.customer_id in (select jsonb_array_elements_text(').value(JSON.stringify(segment.customerIds)).text('::jsonb)::uuid)');
  const r = segment.rules ?? {};
  if (r.tierId) where.text(' and a.tier_id = ').value(r.tierId);
  if (r.bookedSince) where.text(' and a.last_booked_at >= ').value(new Date(r.bookedSince));
  if (r.notBookedSince) where.text(' and (a.last_booked_at is null or a.last_booked_at < ').value(new Date(r.notBookedSince)).text(')');
  if (r.minTotalSpent != null) where.text(' and a.spent >= ').value(r.minTotalSpent).text('::numeric');
  if (r.minOrders != null) where.text(' and a.orders_count >= ').value(r.minOrders);
  if (r.tag) where.text(' and a.tags @> array[').value(r.tag).text(']::text[]');
  if (r.createdSince) where.text(' and a.created_at >= ').value(new Date(r.createdSince));
  if (r.reachableBy) {
    where.text(r.reachableBy === 'email' ? ' and a.email is not null' : ' and a.phone is not null');
    where
      .text(' and not exists (select 1 from campaigns.suppression s where s.company_id = a.company_id and s.customer_id = a.customer_id and s.channel = ')
      .value(r.reachableBy)
      .text(')');
  }
  return where;
}

/** How many customers each segment has now: one statement for the page. */
export async function memberCounts(ctx: RequestContext, segments: readonly Pick<SegmentRow, 'id' | 'customerIds' | 'rules'>[]): Promise<Map<string, number>> {
  if (!segments.length) return new Map();
  const statement = sql();
  segments.forEach((segment, i) => {
    if (i) statement.text(' union all ');
    statement.text('select ').value(segment.id).text('::uuid as id, count(*)::int as n from campaigns.audience a where a.company_id = ').value(COMPANY).append(membersWhere(segment));
  });
  const rows = await statement.run<{ id: string; n: number }>(ctx);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

export interface PreviewCustomer {
  customer_id: string;
  first_name: string;
  last_name: string | null;
  email: string | null;
  phone: string | null;
}

/** A segment's size now and its first 20 customers (by name). */
export async function previewSegment(ctx: RequestContext, segmentId: unknown): Promise<{ segment: SegmentRow; count: number; customers: PreviewCustomer[] }> {
  const segment = await findSegment(ctx, segmentId);
  const [counts, customers] = await Promise.all([
    memberCounts(ctx, [segment]),
    sql('select a.customer_id, a.first_name, a.last_name, a.email, a.phone from campaigns.audience a where a.company_id = ')
      .value(COMPANY)
      .append(membersWhere(segment))
      .text(' order by a.first_name, a.last_name nulls first, a.customer_id limit 20')
      .run<PreviewCustomer>(ctx),
  ]);
  return { segment, count: counts.get(segment.id) ?? 0, customers };
}
