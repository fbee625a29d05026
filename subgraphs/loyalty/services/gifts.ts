/**
 * Gift offers and their redemptions. A redemption runs in one transaction: the offer row is locked
 * (redemptions of one offer take turns), the per-customer limit is counted, stock is taken by a
 * conditional update and the points by the ledger's conditional debit, so neither stock nor a
 * balance ever goes below zero however many redemptions race.
 */
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, conflict, notFound, reasonError } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { applyInput, field, type InputFields } from '../../kernel/inputs.ts';
import { likePattern, pageRequest, type ListQuery } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { checkInstant } from '../../kernel/time.ts';
import { randomToken, sha256 } from '../../kernel/tokens.ts';
import { oneOf, optionalText, requireText } from '../../kernel/validation.ts';
import { GIFT_STATUSES, GiftClaim, GiftOffer, Redemption, type GiftStatus, type RedemptionStatus } from '../entities/gift.ts';
import { standings } from './accounts.ts';
import { credit, debit } from './ledger.ts';

export type OfferRow = RowOf<'loyalty.gift_offer'>;
export type RedemptionRow = RowOf<'loyalty.redemption'>;

export const MAX_QUANTITY = 10;
const CLAIM_DAYS = 30;

export interface OfferInput {
  title?: string | null;
  description?: string | null;
  imageUrl?: string | null;
  pointsCost?: number | null;
  stock?: number | null;
  limitPerCustomer?: number | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  minTierId?: string | null;
  status?: GiftStatus | null;
}

const whole = (field: string, value: number, min: number, max: number) => {
  if (!Number.isInteger(value) || value < min || value > max) throw badInput(field, `must be a whole number from ${min} to ${max}`);
  return value;
};

const OFFER_FIELDS: InputFields<GiftOffer, OfferInput> = {
  title: field.required((f, v) => requireText(f, v, 200)),
  description: field.clearable((f, v) => optionalText(f, v, 5000) ?? null),
  imageUrl: field.clearable((f, v) => {
    const url = optionalText(f, v, 2000) ?? null;
    if (url && !/^https?:\/\/\S+$/i.test(url)) throw badInput(f, 'must be an http(s) URL');
    return url;
  }),
  pointsCost: field.required((f, v) => whole(f, v as number, 0, 10_000_000)),
  stock: field.clearable((f, v) => whole(f, v, 0, 10_000_000)),
  limitPerCustomer: field.clearable((f, v) => whole(f, v, 1, 1000)),
  startsAt: field.clearable(checkInstant),
  endsAt: field.clearable(checkInstant),
  status: field.optional((f, v) => oneOf(f, v, GIFT_STATUSES)),
};

async function apply(tx: RequestContext, offer: GiftOffer, input: OfferInput, creating: boolean) {
  applyInput(offer, input, creating, OFFER_FIELDS);
  if (offer.startsAt && offer.endsAt && offer.endsAt.getTime() <= offer.startsAt.getTime()) throw badInput('endsAt', 'must be after startsAt');
  if (input.minTierId !== undefined) {
    if (input.minTierId !== null && (!isUuid(input.minTierId) || !(await tx.first(tx.query.selectFrom('loyalty.membership_tier').select('id').where('id', '=', input.minTierId))))) throw badInput('minTierId', 'is not a membership tier of this company');
    offer.minTierId = input.minTierId;
  }
}

export async function createOffer(ctx: RequestContext, input: OfferInput): Promise<GiftOffer> {
  return ctx.transaction(async (tx) => {
    const offer = tx.em.create(GiftOffer, { id: newId(), title: '', pointsCost: 0, status: 'draft', description: null, imageUrl: null, stock: null, limitPerCustomer: null, startsAt: null, endsAt: null, minTierId: null });
    await apply(tx, offer, input, true);
    return offer;
  });
}

export async function updateOffer(ctx: RequestContext, offerId: unknown, input: OfferInput): Promise<GiftOffer> {
  if (!isUuid(offerId)) throw badInput('offerId', 'must be a gift offer id');
  return ctx.transaction(async (tx) => {
    const offer = await tx.em.findOne(GiftOffer, { id: offerId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!offer) throw notFound('Gift offer');
    await apply(tx, offer, input, false);
    return offer;
  });
}

export function listOffers(ctx: RequestContext, args: { status?: GiftStatus | null; page?: number | null; limit?: number | null; offset?: number | null }) {
  let select = ctx.query.selectFrom('loyalty.gift_offer').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc');
  if (args.status) select = select.where('status', '=', args.status);
  return ctx.page(select, pageRequest(args));
}

/** Whether an offer is open now (active and within its dates). */
const isOpen = (offer: Pick<OfferRow, 'status' | 'startsAt' | 'endsAt'>, now: Date) =>
  offer.status === 'active' && (!offer.startsAt || offer.startsAt.getTime() <= now.getTime()) && (!offer.endsAt || offer.endsAt.getTime() > now.getTime());

/** The storefront's offers: a page of the open ones (isOpen, as a condition), cheapest first, searched by title. */
export function openOffers(ctx: RequestContext, args: ListQuery) {
  const req = pageRequest(args);
  const now = ctx.now();
  let select = ctx.query
    .selectFrom('loyalty.gift_offer')
    .selectAll()
    .where('status', '=', 'active')
    .where((e) => e.or([e('startsAt', 'is', null), e('startsAt', '<=', now)]))
    .where((e) => e.or([e('endsAt', 'is', null), e('endsAt', '>', now)]))
    .orderBy('pointsCost')
    .orderBy('id');
  if (req.search) select = select.where('title', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}

export async function openOffer(ctx: RequestContext, offerId: unknown): Promise<OfferRow> {
  if (!isUuid(offerId)) throw badInput('id', 'must be a gift offer id');
  const offer = await ctx.first(ctx.query.selectFrom('loyalty.gift_offer').selectAll().where('id', '=', offerId));
  if (!offer || !isOpen(offer, ctx.now())) throw notFound('Gift offer');
  return offer;
}

export type UnavailableReason = 'INSUFFICIENT_POINTS' | 'TIER_REQUIRED' | 'LIMIT_REACHED' | 'OUT_OF_STOCK';

/** For a signed-in customer: whether each offer can be redeemed now, why not, and the points still needed. */
export async function availability(ctx: RequestContext, customerId: string, offers: readonly GiftOffer[]): Promise<{ reason: UnavailableReason | null; pointsShort: number }[]> {
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

/** A code to show at the counter: 8 characters without look-alikes. */
function counterCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from(randomToken(8)).map((c) => alphabet[c.charCodeAt(0) % alphabet.length]).join('').slice(0, 8);
}

/**
 * Gives `quantity` of an offer to a customer in `tx`: the offer locked, open and within the
 * customer's tier; the per-customer limit; stock by a conditional update; the points by the
 * ledger's debit. Any refusal rolls the whole transaction back.
 */
async function give(tx: RequestContext, offerId: string, customerId: string | null, quantity: number, options: { free: boolean; claimId?: string }): Promise<Redemption> {
  // Locked, not loaded to change: its stock changes by the conditional update below.
  const offer = await tx.query.selectFrom('loyalty.gift_offer').selectAll().where('id', '=', offerId).forUpdate().executeTakeFirst();
  if (!offer) throw notFound('Gift offer');
  if (!isOpen(offer, tx.now())) throw reasonError('OFFER_NOT_ACTIVE', 'This gift is not offered now');
  if (customerId && offer.minTierId) {
    const tier = await tx.first(tx.query.selectFrom('loyalty.membership_tier').selectAll().where('id', '=', offer.minTierId));
    const [standing] = await standings(tx, [customerId]);
    if (tier && standing.lifetimeEarned < tier.threshold) throw reasonError('TIER_REQUIRED', `This gift needs the ${tier.name} tier`, { tier: tier.name });
  }
  if (customerId && offer.limitPerCustomer != null) {
    const used = await tx.first(
      tx.query
        .selectFrom('loyalty.redemption')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('quantity'), eb.lit(0)).as('n'))
        .where('offerId', '=', offerId)
        .where('customerId', '=', customerId)
        .where('status', '<>', 'CANCELLED'),
    );
    if (Number(used?.n ?? 0) + quantity > offer.limitPerCustomer) throw reasonError('LIMIT_REACHED', `At most ${offer.limitPerCustomer} per customer`, { limitPerCustomer: offer.limitPerCustomer });
  }
  if (offer.stock != null) {
    const taken = await tx.query
      .updateTable('loyalty.gift_offer')
      .set((eb) => ({ stock: eb('stock', '-', quantity), updatedAt: tx.now() }))
      .where('id', '=', offerId)
      .where('stock', '>=', quantity)
      .returning('id')
      .execute();
    if (!taken.length) throw reasonError('OUT_OF_STOCK', offer.stock ? `Only ${offer.stock} left` : 'This gift is out of stock', { stock: offer.stock });
  }
  const id = newId();
  const points = options.free ? 0 : offer.pointsCost * quantity;
  if (points > 0) await debit(tx, 'REDEEM', { customerId: customerId!, points, reason: `Gift: ${offer.title}${quantity > 1 ? ` × ${quantity}` : ''}`, sourceType: 'redemption', sourceId: id, key: `redemption:${id}` });
  return tx.em.create(Redemption, { id, offerId, customerId, quantity, points, code: counterCode(), status: 'ISSUED', claimId: options.claimId ?? null, createdAt: tx.now(), usedAt: null, cancelledAt: null });
}

/** `POST /gifts/offers/{id}/redeem`: the signed-in customer spends points on a gift. */
export async function redeem(ctx: RequestContext, offerId: unknown, quantity: number | null | undefined): Promise<Redemption> {
  const customerId = ctx.customer.customerId;
  if (!isUuid(offerId)) throw badInput('id', 'must be a gift offer id');
  const q = quantity ?? 1;
  whole('quantity', q, 1, MAX_QUANTITY);
  return ctx.transaction((tx) => give(tx, offerId, customerId, q, { free: false }));
}

/** `issue_gift_claims`: single-use claim tokens for links and campaigns (returned once; only hashes are kept). */
export async function issueClaims(ctx: RequestContext, input: { offerId: unknown; count?: number | null; recipients?: string[] | null }) {
  if (!isUuid(input.offerId)) throw badInput('offerId', 'must be a gift offer id');
  const recipients = input.recipients?.length ? input.recipients.map((r, i) => requireText(`recipients[${i}]`, r, 200)) : null;
  if (recipients && recipients.length > 500) throw badInput('recipients', 'may hold at most 500');
  if (!recipients && input.count == null) throw badInput('count', 'or recipients is required');
  const count = recipients ? recipients.length : whole('count', input.count!, 1, 500);
  return ctx.transaction(async (tx) => {
    const offer = await tx.first(tx.query.selectFrom('loyalty.gift_offer').select('id').where('id', '=', input.offerId as string));
    if (!offer) throw notFound('Gift offer');
    const expiresAt = new Date(tx.now().getTime() + CLAIM_DAYS * 86_400_000);
    return Array.from({ length: count }, (_, i) => {
      const token = `gft_${randomToken(24)}`;
      tx.em.create(GiftClaim, { id: newId(), offerId: offer.id, tokenHash: sha256(token), recipient: recipients?.[i] ?? null, expiresAt, claimedAt: null, createdAt: tx.now() });
      return { token, recipient: recipients?.[i] ?? null, expiresAt };
    });
  });
}

/**
 * `POST /gifts/claim`: a claim token (valid without signing in; a customer token attaches the gift
 * to the customer), or an offer that costs no points for the signed-in customer.
 */
export async function claim(ctx: RequestContext, input: { claimToken?: string | null; offerId?: string | null }): Promise<Redemption> {
  const p = ctx.principal;
  const customerId = p.kind === 'customer' ? p.customerId : null;
  if (input.claimToken) {
    const hash = sha256(String(input.claimToken));
    return ctx.transaction(async (tx) => {
      const found = await tx.query.selectFrom('loyalty.gift_claim').select(['id', 'offerId', 'expiresAt', 'claimedAt']).where('tokenHash', '=', hash).forUpdate().executeTakeFirst();
      if (!found) throw notFound('Gift claim');
      if (found.claimedAt) throw reasonError('ALREADY_CLAIMED', 'This gift was already claimed');
      if (found.expiresAt.getTime() <= tx.now().getTime()) throw reasonError('CLAIM_EXPIRED', 'This gift link has expired');
      await tx.query.updateTable('loyalty.gift_claim').set({ claimedAt: tx.now() }).where('id', '=', found.id).execute();
      return give(tx, found.offerId, customerId, 1, { free: true, claimId: found.id });
    });
  }
  if (!input.offerId) throw badInput('claimToken', 'or offerId is required');
  if (!customerId) throw badInput('offerId', 'needs a signed-in customer (or give claimToken)');
  if (!isUuid(input.offerId)) throw badInput('offerId', 'must be a gift offer id');
  const offer = await openOffer(ctx, input.offerId).catch(() => null);
  if (!offer) throw notFound('Gift offer');
  if (offer.pointsCost > 0) throw badInput('offerId', 'costs points: redeem it instead');
  return ctx.transaction((tx) => give(tx, offer.id, customerId, 1, { free: true }));
}

/** Redemptions, newest first. */
const redemptions = (ctx: RequestContext) => ctx.query.selectFrom('loyalty.redemption').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc');

export function myRedemptions(ctx: RequestContext, args: { page?: number | null; limit?: number | null }) {
  return ctx.page(redemptions(ctx).where('customerId', '=', ctx.customer.customerId), pageRequest(args));
}

export function listRedemptions(ctx: RequestContext, args: { status?: RedemptionStatus | null; customerId?: string | null; offerId?: string | null; page?: number | null; limit?: number | null; offset?: number | null }) {
  let select = redemptions(ctx);
  if (args.status) select = select.where('status', '=', args.status);
  for (const field of ['customerId', 'offerId'] as const) {
    const id = args[field];
    if (id == null) continue;
    if (!isUuid(id)) throw badInput(field, 'must be an id');
    select = select.where(field, '=', id);
  }
  return ctx.page(select, pageRequest(args));
}

/** `mark_redemption_used`: the gift was handed over at the counter (by its code). */
export async function markUsed(ctx: RequestContext, code: unknown): Promise<Redemption> {
  const text = requireText('code', code, 20).trim().toUpperCase();
  return ctx.transaction(async (tx) => {
    const redemption = await tx.em.findOne(Redemption, { code: text }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!redemption) throw notFound('Redemption');
    if (redemption.status !== 'ISSUED') throw conflict(`This gift is ${redemption.status === 'USED' ? 'already used' : 'cancelled'}`, { field: 'code', status: redemption.status });
    redemption.status = 'USED';
    redemption.usedAt = tx.now();
    return redemption;
  });
}

/** `cancel_redemption`: an issued gift taken back; its points and stock return. */
export async function cancelRedemption(ctx: RequestContext, redemptionId: unknown): Promise<Redemption> {
  if (!isUuid(redemptionId)) throw badInput('redemptionId', 'must be a redemption id');
  return ctx.transaction(async (tx) => {
    const redemption = await tx.em.findOne(Redemption, { id: redemptionId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!redemption) throw notFound('Redemption');
    if (redemption.status !== 'ISSUED') throw conflict(`This gift is ${redemption.status === 'USED' ? 'already used' : 'cancelled'}`, { field: 'redemptionId', status: redemption.status });
    redemption.status = 'CANCELLED';
    redemption.cancelledAt = tx.now();
    await tx.query
      .updateTable('loyalty.gift_offer')
      .set((eb) => ({ stock: eb('stock', '+', redemption.quantity), updatedAt: tx.now() }))
      .where('id', '=', redemption.offerId)
      .where('stock', 'is not', null)
      .execute();
    if (redemption.points > 0 && redemption.customerId) {
      await credit(tx, 'REVERSAL', { customerId: redemption.customerId, points: redemption.points, reason: 'Gift cancelled', sourceType: 'redemption', sourceId: redemption.id, key: `redemption:${redemption.id}:cancel` }, null);
    }
    return redemption;
  });
}
