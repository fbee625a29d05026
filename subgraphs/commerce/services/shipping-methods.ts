import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { likePattern, pageRequest, type ListQuery } from '../../kernel/pagination.ts';
import { parseAmount } from '../../kernel/money.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { ShippingMethod, type ShippingKind } from '../entities/shipping-method.ts';

export type ShippingMethodRow = RowOf<'commerce.shipping_method'>;

/** A shipping method's fields as the edge checked them (resolvers/shipping-method.inputs.ts); on a change, absent means unchanged. */
export interface ShippingMethodChanges {
  name?: string | null;
  kind?: ShippingKind | null;
  /** In major units of the company currency ("4.90"). */
  price?: string | null;
  /** FREE_ABOVE: the order subtotal from which shipping is free; null clears it. */
  freeAbove?: string | null;
  needsAddress?: boolean | null;
  active?: boolean | null;
  position?: number | null;
}

function apply(method: ShippingMethod, input: ShippingMethodChanges, currency: string) {
  applyChanges(method, input, { set: ['name', 'kind', 'needsAddress', 'active', 'position'] });
  if (input.price != null) method.priceMinor = parseAmount('price', input.price, currency);
  if (input.freeAbove !== undefined) method.freeAboveMinor = input.freeAbove == null ? null : parseAmount('freeAbove', input.freeAbove, currency);
  // Pickup costs nothing and needs no address; a free-above rate needs its threshold.
  if (method.kind === 'LOCAL_PICKUP') {
    if (input.price != null && method.priceMinor !== 0) throw badInput('price', 'must be 0 for LOCAL_PICKUP');
    method.priceMinor = 0;
    method.freeAboveMinor = null;
    if (input.needsAddress == null) method.needsAddress = false;
  }
  if (method.kind === 'FREE_ABOVE' && method.freeAboveMinor == null) throw badInput('freeAbove', 'is required for FREE_ABOVE');
  if (method.kind === 'FLAT_RATE') method.freeAboveMinor = null;
}

export async function createShippingMethod(ctx: RequestContext, input: ShippingMethodChanges & { name: string; kind: ShippingKind }) {
  const { name, kind } = input;
  if (kind !== 'LOCAL_PICKUP' && input.price == null) throw badInput('price', `is required for ${kind}`);
  const { currency } = await tenantSettings(ctx);
  return ctx.transaction(async (tx) => {
    const method = tx.em.create(ShippingMethod, {
      id: newId(),
      name,
      kind,
      priceMinor: 0,
      freeAboveMinor: null,
      currency,
      needsAddress: kind !== 'LOCAL_PICKUP',
      active: true,
      position: 0,
    });
    apply(method, input, currency);
    return method;
  });
}

export async function updateShippingMethod(ctx: RequestContext, id: string, input: ShippingMethodChanges) {
  return ctx.transaction(async (tx) => {
    const method = await tx.em.findOne(ShippingMethod, { id });
    if (!method) throw notFound('Shipping method');
    apply(method, input, method.currency);
    return method;
  });
}

/** A page of the shop's shipping methods in checkout order (the storefront's: active ones only), searched by name. */
export function listShippingMethods(ctx: RequestContext, activeOnly: boolean, args: ListQuery) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('commerce.shipping_method').selectAll().orderBy('position').orderBy('name').orderBy('id');
  if (activeOnly) select = select.where('active', '=', true);
  if (req.search) select = select.where('name', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}

/** What a method costs for an order subtotal. */
export function shippingCost(method: ShippingMethodRow, subtotalMinor: number): number {
  if (method.kind === 'LOCAL_PICKUP') return 0;
  if (method.kind === 'FREE_ABOVE' && method.freeAboveMinor != null && subtotalMinor >= method.freeAboveMinor) return 0;
  return method.priceMinor;
}
