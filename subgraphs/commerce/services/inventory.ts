/** The merchant's stock changes: a delta with a reason, kept as a movement history. */
import { sql } from 'kysely';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, conflict, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { pageRequest } from '../../kernel/pagination.ts';
import { requireText } from '../../kernel/validation.ts';
import { StockMovement } from '../entities/product.ts';
import { MAX_STOCK, wholeNumber } from './products.ts';

/**
 * Adds `delta` (negative to take off) to a variant's stock. One conditional update decides:
 * concurrent adjustments each apply exactly once, and stock never goes below zero (409 naming
 * `delta`, with what is available).
 */
export async function adjustStock(ctx: RequestContext, input: { variantId: string; delta: number; reason: string }) {
  if (!isUuid(input.variantId)) throw badInput('variantId', 'must be a variant id');
  const delta = wholeNumber('delta', input.delta, -MAX_STOCK, MAX_STOCK);
  if (delta === 0) throw badInput('delta', 'must not be 0');
  const reason = requireText('reason', input.reason, 200);
  return ctx.transaction(async (tx) => {
    const [row] = await tx.query
      .updateTable('commerce.product_variant')
      .set((e) => ({ stock: e('stock', '+', delta), updatedAt: sql<Date>`now()` }))
      .where('id', '=', input.variantId)
      .where((e) => e.between(e('stock', '+', delta), 0, MAX_STOCK))
      .returning('stock')
      .execute();
    if (!row) {
      const left = await tx.first(tx.query.selectFrom('commerce.product_variant').select('stock').where('id', '=', input.variantId));
      if (!left) throw notFound('Variant');
      throw conflict(`Stock is ${left.stock}; a change of ${delta} would take it below 0 or above ${MAX_STOCK}`, { field: 'delta', available: Number(left.stock) });
    }
    const movement = tx.em.create(StockMovement, { id: newId(), variantId: input.variantId, delta, stockAfter: Number(row.stock), reason });
    return { movement, stock: Number(row.stock) };
  });
}

export async function stockMovements(ctx: RequestContext, variantId: string, args: { page?: number | null; limit?: number | null }) {
  if (!isUuid(variantId)) throw badInput('variantId', 'must be a variant id');
  if (!(await ctx.first(ctx.query.selectFrom('commerce.product_variant').select('id').where('id', '=', variantId)))) throw notFound('Variant');
  return ctx.page(ctx.query.selectFrom('commerce.stock_movement').selectAll().where('variantId', '=', variantId).orderBy('createdAt', 'desc').orderBy('id', 'desc'), pageRequest(args));
}
