/** The merchant's stock changes: a delta with a reason, kept as a movement history. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, conflict, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { pageRequest } from '../../kernel/pagination.ts';
import { requireText } from '../../kernel/validation.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import { ProductVariant, StockMovement } from '../entities/product.ts';
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
    const [row] = await tx.tenantSql<{ stock: number }>`update commerce.product_variant set stock = stock + ${delta}, updated_at = now()
      where company_id = ${COMPANY} and id = ${input.variantId} and stock + ${delta} between 0 and ${MAX_STOCK} returning stock`;
    if (!row) {
      const [left] = await tx.tenantSql<{ stock: number }>`select stock from commerce.product_variant where company_id = ${COMPANY} and id = ${input.variantId}`;
      if (!left) throw notFound('Variant');
      throw conflict(`Stock is ${left.stock}; a change of ${delta} would take it below 0 or above ${MAX_STOCK}`, { field: 'delta', available: Number(left.stock) });
    }
    const movement = tx.em.create(StockMovement, { id: newId(), variantId: input.variantId, delta, stockAfter: Number(row.stock), reason });
    return { movement, stock: Number(row.stock) };
  });
}

export async function stockMovements(ctx: RequestContext, variantId: string, args: { page?: number | null; limit?: number | null }) {
  if (!isUuid(variantId)) throw badInput('variantId', 'must be a variant id');
  if (!(await ctx.row(ProductVariant, { id: variantId }))) throw notFound('Variant');
  return ctx.page(StockMovement, { variantId }, pageRequest(args), { createdAt: 'desc', id: 'desc' });
}
