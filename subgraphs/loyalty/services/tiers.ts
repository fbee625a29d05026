/** Membership tiers: defined by the merchant, reached by lifetime points. */
import type { RequestContext } from '../../kernel/context.ts';
import { notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { likePattern, pageRequest, type ListQuery } from '../../kernel/pagination.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { MembershipTier } from '../entities/tier.ts';

export type TierRow = RowOf<'loyalty.membership_tier'>;

/** A tier's fields as the edge checked them (resolvers/loyalty.inputs.ts), the colour upper-cased; on a change, absent means unchanged and null clears the colour. */
export interface TierChanges {
  name?: string | null;
  threshold?: number | null;
  benefits?: string[] | null;
  sortOrder?: number | null;
  color?: string | null;
}

const TIER_FIELDS = { set: ['name', 'threshold', 'benefits', 'sortOrder'], clearable: ['color'] } as const;

export async function createTier(ctx: RequestContext, input: TierChanges): Promise<MembershipTier> {
  return ctx.transaction(async (tx) => {
    const tier = tx.em.create(MembershipTier, { id: newId(), name: '', threshold: 0, benefits: [], sortOrder: 0, color: null });
    applyChanges(tier, input, TIER_FIELDS);
    // Left out, tiers show in the order customers climb them (as far as the largest sort order goes).
    if (input.sortOrder == null) tier.sortOrder = Math.min(tier.threshold, 10_000);
    return tier;
  });
}

export async function updateTier(ctx: RequestContext, tierId: string, input: TierChanges): Promise<MembershipTier> {
  return ctx.transaction(async (tx) => {
    const tier = await tx.em.findOne(MembershipTier, { id: tierId });
    if (!tier) throw notFound('Membership tier');
    applyChanges(tier, input, TIER_FIELDS);
    return tier;
  });
}

/** The company's tiers, lowest threshold first (the order customers climb them). */
export function listTiers(ctx: RequestContext): Promise<TierRow[]> {
  return ctx.all(ctx.query.selectFrom('loyalty.membership_tier').selectAll().orderBy('threshold').orderBy('id'));
}

/** A page of the tiers, lowest threshold first, searched by name. */
export function tiersPage(ctx: RequestContext, args: ListQuery) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('loyalty.membership_tier').selectAll().orderBy('threshold').orderBy('id');
  if (req.search) select = select.where('name', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}

/** The tier lifetime points reach: the highest threshold at or below them. */
export const tierFor = (tiers: readonly TierRow[], lifetime: number): TierRow | null => tiers.filter((t) => t.threshold <= lifetime).at(-1) ?? null;
