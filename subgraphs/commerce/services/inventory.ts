/** The merchant's stock changes: a delta with a reason, kept as a movement history. */
import { sql } from 'kysely';
import type { RequestContext } from '../../kernel/context.ts';
import { conflict, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { pageRequest } from '../../kernel/pagination.ts';
import { StockMovement } from '../entities/product.ts';
import { MAX_STOCK } from './products.ts';

/** A stock change as the edge checked it (resolvers/product.inputs.ts): a delta other than 0, within ±MAX_STOCK. */
export interface StockChange {
  variantId: string;
  delta: number;
  reason: string;
}

/**
 * Adds `delta` (negative to take off) to a variant's stock. One conditional update decides:
 * concurrent adjustments each apply exactly once, and stock never goes below zero (409 naming
 * `delta`, with what is available).
 */
export async function adjustStock(ctx: RequestContext, { variantId, delta, reason }: StockChange) {
  return ctx.transaction(async (tx) => {
    const [row] = await tx.query
      .updateTable('commerce.product_variant')
      .set((e) => ({ stock: e('stock', '+', delta), updatedAt: sql<Date>`now()` }))
      .where('id', '=', variantId)
      .where((e) => e.between(e('stock', '+', delta), 0, MAX_STOCK))
      .returning('stock')
      .execute();
    if (!row) {
      const left = await tx.first(tx.query.selectFrom('commerce.product_variant').select('stock').where('id', '=', variantId));
      if (!left) throw notFound('Variant');
      throw conflict(`Stock is ${left.stock}; a change of ${delta} would take it below 0 or above ${MAX_STOCK}`, {
        field: 'delta',
        available: Number(left.stock),
      });
    }
    const movement = tx.em.create(StockMovement, { id: newId(), variantId, delta, stockAfter: Number(row.stock), reason });
    return { movement, stock: Number(row.stock) };
  });
}

export async function stockMovements(ctx: RequestContext, variantId: string, args: { page?: number | null; limit?: number | null }) {
  if (!(await ctx.first(ctx.query.selectFrom('commerce.product_variant').select('id').where('id', '=', variantId)))) throw notFound('Variant');
  return ctx.page(
    ctx.query.selectFrom('commerce.stock_movement').selectAll().where('variantId', '=', variantId).orderBy('createdAt', 'desc').orderBy('id', 'desc'),
    pageRequest(args),
  );
}
