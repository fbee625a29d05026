/**
 * What a gift offer's or a redemption's node shows beside its row, read for a whole page at once:
 * an offer's tier and (to a signed-in customer) whether they can redeem it; a redemption's gift
 * title and the balance its debit left.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { anyOf } from '../../kernel/query.ts';
import type { GiftOffer, Redemption } from '../entities/gift.ts';
import { standings } from './accounts.ts';
import { listTiers, type TierRow } from './tiers.ts';

export type UnavailableReason = 'INSUFFICIENT_POINTS' | 'TIER_REQUIRED' | 'LIMIT_REACHED' | 'OUT_OF_STOCK';

export interface Availability {
  reason: UnavailableReason | null;
  /** Points still needed for one (0 when the balance covers it). */
  pointsShort: number;
}

export interface OfferView {
  offer: GiftOffer;
  minTier: TierRow | null;
  /** Null unless a customer is signed in. */
  availability: Availability | null;
}

export interface RedemptionView {
  redemption: Redemption;
  /** The gift's title. */
  title: string;
  /** Null for a claim, which debits nothing. */
  balanceAfter: number | null;
}

/** For a signed-in customer: whether each offer can be redeemed now, why not, and the points still needed. */
async function availability(ctx: RequestContext, customerId: string, offers: readonly GiftOffer[]): Promise<Availability[]> {
  if (!offers.length) return [];
  const [[standing], taken, tiers] = await Promise.all([
    standings(ctx, [customerId]),
    ctx.all(
      ctx.query
        .selectFrom('loyalty.redemption')
        .select((eb) => ['offerId', eb.fn.sum<string | number>('quantity').as('n')])
        .where('customerId', '=', customerId)
        .where('status', '<>', 'CANCELLED')
        .where('offerId', '=', anyOf(offers.map((o) => o.id)))
        .groupBy('offerId'),
    ),
    ctx.all(ctx.query.selectFrom('loyalty.membership_tier').selectAll()),
  ]);
  const reasonFor = (o: GiftOffer): UnavailableReason | null => {
    if (o.stock === 0) return 'OUT_OF_STOCK';
    const used = Number(taken.find((t) => t.offerId === o.id)?.n ?? 0);
    if (o.limitPerCustomer != null && used >= o.limitPerCustomer) return 'LIMIT_REACHED';
    const minimum = o.minTierId ? tiers.find((t) => t.id === o.minTierId) : null;
    if (minimum && standing.lifetimeEarned < minimum.threshold) return 'TIER_REQUIRED';
    if (standing.balance < o.pointsCost) return 'INSUFFICIENT_POINTS';
    return null;
  };
  return offers.map((o) => ({ reason: reasonFor(o), pointsShort: Math.max(0, o.pointsCost - standing.balance) }));
}

/** Offers with their tier (one read of the tiers) and, for a customer, whether they can redeem each. */
export async function offerViews(ctx: RequestContext, offers: readonly GiftOffer[]): Promise<OfferView[]> {
  const p = ctx.principal;
  const [tiers, reasons] = await Promise.all([
    offers.some((o) => o.minTierId) ? listTiers(ctx) : Promise.resolve([] as TierRow[]),
    p.kind === 'customer' ? availability(ctx, p.customerId, offers) : Promise.resolve(null),
  ]);
  return offers.map((offer, i) => ({ offer, minTier: tiers.find((t) => t.id === offer.minTierId) ?? null, availability: reasons ? reasons[i] : null }));
}

/** Redemptions with their gift's title and the balance their debit left (one read each). */
export async function redemptionViews(ctx: RequestContext, rows: readonly Redemption[]): Promise<RedemptionView[]> {
  const ids = rows.map((r) => r.id);
  const [offers, debits] = rows.length
    ? await Promise.all([
        ctx.all(
          ctx.query
            .selectFrom('loyalty.gift_offer')
            .select(['id', 'title'])
            .where('id', '=', anyOf([...new Set(rows.map((r) => r.offerId))])),
        ),
        ctx.all(
          ctx.query.selectFrom('loyalty.ledger_entry').select(['sourceId', 'balanceAfter']).where('type', '=', 'REDEEM').where('sourceId', '=', anyOf(ids)),
        ),
      ])
    : [[], []];
  return rows.map((redemption) => ({
    redemption,
    title: offers.find((o) => o.id === redemption.offerId)?.title ?? '',
    balanceAfter: debits.find((d) => d.sourceId === redemption.id)?.balanceAfter ?? null,
  }));
}
