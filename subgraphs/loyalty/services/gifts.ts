/**
 * Gift offers and their redemptions. A redemption runs in one transaction: the offer row is locked
 * (redemptions of one offer take turns), the per-customer limit is counted, stock is taken by a
 * conditional update and the points by the ledger's conditional debit, so neither stock nor a
 * balance ever goes below zero however many redemptions race.
 */
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, conflict, notFound, reasonError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { likePattern, pageRequest, type ListQuery, type Page } from '../../kernel/pagination.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { randomToken, sha256 } from '../../kernel/tokens.ts';
import { GiftClaim, GiftOffer, Redemption, type GiftStatus, type RedemptionStatus } from '../entities/gift.ts';
import { standings } from './accounts.ts';
import { offerViews, redemptionViews, type OfferView, type RedemptionView } from './gift-views.ts';
import { credit, debit } from './ledger.ts';

export type OfferRow = RowOf<'loyalty.gift_offer'>;

export const MAX_QUANTITY = 10;
const CLAIM_DAYS = 30;

/** An offer's fields as the edge checked them (resolvers/gift.inputs.ts); on a change, absent means unchanged and null clears an optional one. */
export interface OfferChanges {
  title?: string | null;
  description?: string | null;
  imageUrl?: string | null;
  pointsCost?: number | null;
  stock?: number | null;
  limitPerCustomer?: number | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  status?: GiftStatus | null;
  minTierId?: string | null;
}

const offerView = async (ctx: RequestContext, offer: GiftOffer): Promise<OfferView> => (await offerViews(ctx, [offer]))[0];
const redemptionView = async (ctx: RequestContext, redemption: Redemption): Promise<RedemptionView> => (await redemptionViews(ctx, [redemption]))[0];
const viewPage = async <T, V>(page: Page<T>, view: (items: T[]) => Promise<V[]>): Promise<Page<V>> => ({ ...page, items: await view(page.items) });

/** The given fields, then the rules across fields and the tier (which must be one of the company's). */
async function apply(tx: RequestContext, offer: GiftOffer, input: OfferChanges) {
  applyChanges(offer, input, {
    set: ['title', 'pointsCost', 'status'],
    clearable: ['description', 'imageUrl', 'stock', 'limitPerCustomer', 'startsAt', 'endsAt'],
  });
  if (offer.startsAt && offer.endsAt && offer.endsAt.getTime() <= offer.startsAt.getTime()) throw badInput('endsAt', 'must be after startsAt');
  if (input.minTierId !== undefined) {
    if (input.minTierId !== null && !(await tx.first(tx.query.selectFrom('loyalty.membership_tier').select('id').where('id', '=', input.minTierId))))
      throw badInput('minTierId', 'is not a membership tier of this company');
    offer.minTierId = input.minTierId;
  }
}

export async function createOffer(ctx: RequestContext, input: OfferChanges): Promise<OfferView> {
  const offer = await ctx.transaction(async (tx) => {
    const offer = tx.em.create(GiftOffer, {
      id: newId(),
      title: '',
      pointsCost: 0,
      status: 'draft',
      description: null,
      imageUrl: null,
      stock: null,
      limitPerCustomer: null,
      startsAt: null,
      endsAt: null,
      minTierId: null,
    });
    await apply(tx, offer, input);
    return offer;
  });
  return offerView(ctx, offer);
}

export async function updateOffer(ctx: RequestContext, offerId: string, input: OfferChanges): Promise<OfferView> {
  const offer = await ctx.transaction(async (tx) => {
    const offer = await tx.em.findOne(GiftOffer, { id: offerId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!offer) throw notFound('Gift offer');
    await apply(tx, offer, input);
    return offer;
  });
  return offerView(ctx, offer);
}

export async function listOffers(
  ctx: RequestContext,
  args: { status?: GiftStatus | null; page?: number | null; limit?: number | null; offset?: number | null },
): Promise<Page<OfferView>> {
  let select = ctx.query.selectFrom('loyalty.gift_offer').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc');
  if (args.status) select = select.where('status', '=', args.status);
  return viewPage(await ctx.page(select, pageRequest(args)), (items) => offerViews(ctx, items));
}

/** Whether an offer is open now (active and within its dates). */
const isOpen = (offer: Pick<OfferRow, 'status' | 'startsAt' | 'endsAt'>, now: Date) =>
  offer.status === 'active' && (!offer.startsAt || offer.startsAt.getTime() <= now.getTime()) && (!offer.endsAt || offer.endsAt.getTime() > now.getTime());

/** The storefront's offers: a page of the open ones (isOpen, as a condition), cheapest first, searched by title. */
export async function openOffers(ctx: RequestContext, args: ListQuery): Promise<Page<OfferView>> {
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
  return viewPage(await ctx.page(select, req), (items) => offerViews(ctx, items));
}

async function findOpenOffer(ctx: RequestContext, offerId: string): Promise<OfferRow | null> {
  const offer = await ctx.first(ctx.query.selectFrom('loyalty.gift_offer').selectAll().where('id', '=', offerId));
  return offer && isOpen(offer, ctx.now()) ? offer : null;
}

export async function openOffer(ctx: RequestContext, offerId: string): Promise<OfferView> {
  const offer = await findOpenOffer(ctx, offerId);
  if (!offer) throw notFound('Gift offer');
  return offerView(ctx, offer);
}

/** A code to show at the counter: 8 characters without look-alikes. */
function counterCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from(randomToken(8))
    .map((c) => alphabet[c.charCodeAt(0) % alphabet.length])
    .join('')
    .slice(0, 8);
}

/**
 * Gives `quantity` of an offer to a customer in `tx`: the offer locked, open and within the
 * customer's tier; the per-customer limit; stock by a conditional update; the points by the
 * ledger's debit. Any refusal rolls the whole transaction back.
 */
async function give(
  tx: RequestContext,
  offerId: string,
  customerId: string | null,
  quantity: number,
  options: { free: boolean; claimId?: string },
): Promise<Redemption> {
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
    if (Number(used?.n ?? 0) + quantity > offer.limitPerCustomer)
      throw reasonError('LIMIT_REACHED', `At most ${offer.limitPerCustomer} per customer`, { limitPerCustomer: offer.limitPerCustomer });
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
  if (points > 0)
    await debit(tx, 'REDEEM', {
      customerId: customerId!,
      points,
      reason: `Gift: ${offer.title}${quantity > 1 ? ` × ${quantity}` : ''}`,
      sourceType: 'redemption',
      sourceId: id,
      key: `redemption:${id}`,
    });
  return tx.em.create(Redemption, {
    id,
    offerId,
    customerId,
    quantity,
    points,
    code: counterCode(),
    status: 'ISSUED',
    claimId: options.claimId ?? null,
    createdAt: tx.now(),
    usedAt: null,
    cancelledAt: null,
  });
}

/** `POST /gifts/offers/{id}/redeem`: the signed-in customer spends points on a gift (one unless `quantity` says). */
export async function redeem(ctx: RequestContext, offerId: string, quantity: number | null | undefined): Promise<RedemptionView> {
  const customerId = ctx.customer.customerId;
  const redemption = await ctx.transaction((tx) => give(tx, offerId, customerId, quantity ?? 1, { free: false }));
  return redemptionView(ctx, redemption);
}

/** Claims to issue as the edge checked them (resolvers/gift.inputs.ts): one per recipient, or without recipients `count` (then required). */
export interface ClaimsToIssue {
  offerId: string;
  recipients?: string[] | null;
  count?: number | null;
}

/** `issue_gift_claims`: single-use claim tokens for links and campaigns (returned once; only hashes are kept). */
export async function issueClaims(ctx: RequestContext, input: ClaimsToIssue) {
  const recipients = input.recipients?.length ? input.recipients : null;
  const count = recipients ? recipients.length : input.count!;
  return ctx.transaction(async (tx) => {
    const offer = await tx.first(tx.query.selectFrom('loyalty.gift_offer').select('id').where('id', '=', input.offerId));
    if (!offer) throw notFound('Gift offer');
    const expiresAt = new Date(tx.now().getTime() + CLAIM_DAYS * 86_400_000);
    return Array.from({ length: count }, (_, i) => {
      const token = `gft_${randomToken(24)}`;
      tx.em.create(GiftClaim, {
        id: newId(),
        offerId: offer.id,
        tokenHash: sha256(token),
        recipient: recipients?.[i] ?? null,
        expiresAt,
        claimedAt: null,
        createdAt: tx.now(),
      });
      return { token, recipient: recipients?.[i] ?? null, expiresAt };
    });
  });
}

/** What to claim, as the edge checked it (resolvers/gift.inputs.ts): a claim token, or else a free gift's id. */
export interface GiftClaimRequest {
  claimToken?: string | null;
  offerId?: string | null;
}

/**
 * `POST /gifts/claim`: a claim token (valid without signing in; a customer token attaches the gift
 * to the customer), or an offer that costs no points for the signed-in customer.
 */
export async function claim(ctx: RequestContext, input: GiftClaimRequest): Promise<RedemptionView> {
  return redemptionView(ctx, await claimed(ctx, input));
}

async function claimed(ctx: RequestContext, input: GiftClaimRequest): Promise<Redemption> {
  const p = ctx.principal;
  const customerId = p.kind === 'customer' ? p.customerId : null;
  if (input.claimToken) {
    const hash = sha256(input.claimToken);
    return ctx.transaction(async (tx) => {
      const found = await tx.query
        .selectFrom('loyalty.gift_claim')
        .select(['id', 'offerId', 'expiresAt', 'claimedAt'])
        .where('tokenHash', '=', hash)
        .forUpdate()
        .executeTakeFirst();
      if (!found) throw notFound('Gift claim');
      if (found.claimedAt) throw reasonError('ALREADY_CLAIMED', 'This gift was already claimed');
      if (found.expiresAt.getTime() <= tx.now().getTime()) throw reasonError('CLAIM_EXPIRED', 'This gift link has expired');
      await tx.query.updateTable('loyalty.gift_claim').set({ claimedAt: tx.now() }).where('id', '=', found.id).execute();
      return give(tx, found.offerId, customerId, 1, { free: true, claimId: found.id });
    });
  }
  if (!input.offerId) throw badInput('claimToken', 'or offerId is required');
  if (!customerId) throw badInput('offerId', 'needs a signed-in customer (or give claimToken)');
  const offer = await findOpenOffer(ctx, input.offerId);
  if (!offer) throw notFound('Gift offer');
  if (offer.pointsCost > 0) throw badInput('offerId', 'costs points: redeem it instead');
  return ctx.transaction((tx) => give(tx, offer.id, customerId, 1, { free: true }));
}

/** Redemptions, newest first. */
const redemptions = (ctx: RequestContext) => ctx.query.selectFrom('loyalty.redemption').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc');

export async function myRedemptions(ctx: RequestContext, args: { page?: number | null; limit?: number | null }): Promise<Page<RedemptionView>> {
  return viewPage(await ctx.page(redemptions(ctx).where('customerId', '=', ctx.customer.customerId), pageRequest(args)), (items) =>
    redemptionViews(ctx, items),
  );
}

/** The merchant's filters as the edge checked them (resolvers/gift.inputs.ts), with the page asked for. */
export interface RedemptionQuery {
  status?: RedemptionStatus | null;
  customerId?: string | null;
  offerId?: string | null;
  page?: number | null;
  limit?: number | null;
  offset?: number | null;
}

export async function listRedemptions(ctx: RequestContext, args: RedemptionQuery): Promise<Page<RedemptionView>> {
  let select = redemptions(ctx);
  if (args.status) select = select.where('status', '=', args.status);
  if (args.customerId != null) select = select.where('customerId', '=', args.customerId);
  if (args.offerId != null) select = select.where('offerId', '=', args.offerId);
  return viewPage(await ctx.page(select, pageRequest(args)), (items) => redemptionViews(ctx, items));
}

/** `mark_redemption_used`: the gift was handed over at the counter (by its code). */
export async function markUsed(ctx: RequestContext, code: string): Promise<RedemptionView> {
  const used = await ctx.transaction(async (tx) => {
    const redemption = await tx.em.findOne(Redemption, { code }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!redemption) throw notFound('Redemption');
    if (redemption.status !== 'ISSUED')
      throw conflict(`This gift is ${redemption.status === 'USED' ? 'already used' : 'cancelled'}`, { field: 'code', status: redemption.status });
    redemption.status = 'USED';
    redemption.usedAt = tx.now();
    return redemption;
  });
  return redemptionView(ctx, used);
}

/** `cancel_redemption`: an issued gift taken back; its points and stock return. */
export async function cancelRedemption(ctx: RequestContext, redemptionId: string): Promise<RedemptionView> {
  const cancelled = await ctx.transaction(async (tx) => {
    const redemption = await tx.em.findOne(Redemption, { id: redemptionId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!redemption) throw notFound('Redemption');
    if (redemption.status !== 'ISSUED')
      throw conflict(`This gift is ${redemption.status === 'USED' ? 'already used' : 'cancelled'}`, { field: 'redemptionId', status: redemption.status });
    redemption.status = 'CANCELLED';
    redemption.cancelledAt = tx.now();
    await tx.query
      .updateTable('loyalty.gift_offer')
      .set((eb) => ({ stock: eb('stock', '+', redemption.quantity), updatedAt: tx.now() }))
      .where('id', '=', redemption.offerId)
      .where('stock', 'is not', null)
      .execute();
    if (redemption.points > 0 && redemption.customerId) {
      await credit(
        tx,
        'REVERSAL',
        {
          customerId: redemption.customerId,
          points: redemption.points,
          reason: 'Gift cancelled',
          sourceType: 'redemption',
          sourceId: redemption.id,
          key: `redemption:${redemption.id}:cancel`,
        },
        null,
      );
    }
    return redemption;
  });
  return redemptionView(ctx, cancelled);
}
