/** Membership tiers: defined by the merchant, reached by lifetime points. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { applyInput, field, type InputFields } from '../../kernel/inputs.ts';
import { likePattern, pageRequest, type ListQuery } from '../../kernel/pagination.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { optionalText, requireText } from '../../kernel/validation.ts';
import { MembershipTier } from '../entities/tier.ts';

export type TierRow = RowOf<'loyalty.membership_tier'>;

export interface TierInput {
  name?: string | null;
  threshold?: number | null;
  benefits?: string[] | null;
  sortOrder?: number | null;
  color?: string | null;
}

const TIER_FIELDS: InputFields<MembershipTier, TierInput> = {
  name: field.required((f, v) => requireText(f, v, 100)),
  threshold: field.required((f, v) => {
    if (!Number.isInteger(v) || v! < 0 || v! > 100_000_000) throw badInput(f, 'must be a whole number of lifetime points from 0 to 100000000');
    return v!;
  }),
  benefits: field.optional((f, v) => {
    if (v.length > 20) throw badInput(f, 'may hold at most 20 lines');
    return v.map((b, i) => requireText(`${f}[${i}]`, b, 200));
  }),
  sortOrder: field.optional((f, v) => {
    if (!Number.isInteger(v) || v < 0 || v > 10_000) throw badInput(f, 'must be a whole number from 0 to 10000');
    return v;
  }),
  color: field.clearable((f, v) => {
    const color = optionalText(f, v, 7) ?? null;
    if (color && !/^#[0-9a-fA-F]{6}$/.test(color)) throw badInput(f, 'must be a hex colour such as "#C0A060"');
    return color?.toUpperCase() ?? null;
  }),
};

export async function createTier(ctx: RequestContext, input: TierInput): Promise<MembershipTier> {
  return ctx.transaction(async (tx) => {
    const tier = tx.em.create(MembershipTier, { id: newId(), name: '', threshold: 0, benefits: [], sortOrder: 0, color: null });
    applyInput(tier, input, true, TIER_FIELDS);
    if (input.sortOrder == null) tier.sortOrder = tier.threshold > 10_000 ? 10_000 : tier.threshold;
    return tier;
  });
}

export async function updateTier(ctx: RequestContext, tierId: unknown, input: TierInput): Promise<MembershipTier> {
  if (!isUuid(tierId)) throw badInput('tierId', 'must be a tier id');
  return ctx.transaction(async (tx) => {
    const tier = await tx.em.findOne(MembershipTier, { id: tierId });
    if (!tier) throw notFound('Membership tier');
    applyInput(tier, input, false, TIER_FIELDS);
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
