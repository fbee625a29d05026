/** Membership tiers: defined by the merchant, reached by lifetime points. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { likePattern, pageRequest, type ListQuery } from '../../kernel/pagination.ts';
import type { Row } from '../../kernel/reads.ts';
import { optionalText, requireText } from '../../kernel/validation.ts';
import { MembershipTier } from '../entities/tier.ts';

export type TierRow = Row<MembershipTier>;

export interface TierInput {
  name?: string | null;
  threshold?: number | null;
  benefits?: string[] | null;
  sortOrder?: number | null;
  color?: string | null;
}

function apply(tier: MembershipTier, input: TierInput, creating: boolean) {
  if (input.name != null || creating) tier.name = requireText('name', input.name, 100);
  if (input.threshold != null || creating) {
    if (!Number.isInteger(input.threshold) || input.threshold! < 0 || input.threshold! > 100_000_000) throw badInput('threshold', 'must be a whole number of lifetime points from 0 to 100000000');
    tier.threshold = input.threshold!;
  }
  if (input.benefits != null) {
    if (input.benefits.length > 20) throw badInput('benefits', 'may hold at most 20 lines');
    tier.benefits = input.benefits.map((b, i) => requireText(`benefits[${i}]`, b, 200));
  }
  if (input.sortOrder != null) {
    if (!Number.isInteger(input.sortOrder) || input.sortOrder < 0 || input.sortOrder > 10_000) throw badInput('sortOrder', 'must be a whole number from 0 to 10000');
    tier.sortOrder = input.sortOrder;
  }
  if (input.color !== undefined) {
    const color = optionalText('color', input.color, 7) ?? null;
    if (color && !/^#[0-9a-fA-F]{6}$/.test(color)) throw badInput('color', 'must be a hex colour such as "#C0A060"');
    tier.color = color?.toUpperCase() ?? null;
  }
}

export async function createTier(ctx: RequestContext, input: TierInput): Promise<MembershipTier> {
  return ctx.transaction(async (tx) => {
    const tier = tx.em.create(MembershipTier, { id: newId(), name: '', threshold: 0, benefits: [], sortOrder: 0, color: null });
    apply(tier, input, true);
    if (input.sortOrder == null) tier.sortOrder = tier.threshold > 10_000 ? 10_000 : tier.threshold;
    return tier;
  });
}

export async function updateTier(ctx: RequestContext, tierId: unknown, input: TierInput): Promise<MembershipTier> {
  if (!isUuid(tierId)) throw badInput('tierId', 'must be a tier id');
  return ctx.transaction(async (tx) => {
    const tier = await tx.em.findOne(MembershipTier, { id: tierId });
    if (!tier) throw notFound('Membership tier');
    apply(tier, input, false);
    return tier;
  });
}

/** The company's tiers, lowest threshold first (the order customers climb them). */
export function listTiers(ctx: RequestContext): Promise<TierRow[]> {
  return ctx.rows(MembershipTier, {}, { orderBy: { threshold: 'asc', id: 'asc' } });
}

/** A page of the tiers, lowest threshold first, searched by name. */
export function tiersPage(ctx: RequestContext, args: ListQuery) {
  const req = pageRequest(args);
  return ctx.page(MembershipTier, req.search ? { name: { $ilike: likePattern(req.search) } } : {}, req, { threshold: 'asc', id: 'asc' });
}

/** The tier lifetime points reach: the highest threshold at or below them. */
export const tierFor = (tiers: readonly TierRow[], lifetime: number): TierRow | null => tiers.filter((t) => t.threshold <= lifetime).at(-1) ?? null;
