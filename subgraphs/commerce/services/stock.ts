/**
 * Stock held by orders. Reserving takes it off the variant's stock in the order's transaction:
 * lines of one variant are merged, rows are updated in one fixed order (by variant id, so two
 * checkouts never wait on each other crosswise), and each update is conditional on enough stock,
 * so concurrent checkouts can never sell below zero. A paid order keeps it (sold); a cancelled or
 * expired order gives it back.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { CatalogLine } from './catalog-lines.ts';

export async function reserveStock(tx: RequestContext, lines: CatalogLine[]): Promise<void> {
  const merged = new Map<string, { quantity: number; index: number }>();
  for (const line of lines) {
    if (!line.trackInventory) continue;
    const held = merged.get(line.variantId);
    merged.set(line.variantId, { quantity: (held?.quantity ?? 0) + line.quantity, index: held?.index ?? line.index });
  }
  for (const [variantId, { quantity, index }] of [...merged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const taken = await tx.query
      .updateTable('commerce.product_variant')
      .set((e) => ({ stock: e('stock', '-', quantity) }))
      .where('id', '=', variantId)
      .where('stock', '>=', quantity)
      .returning('id')
      .execute();
    if (taken.length) continue;
    const left = await tx.first(tx.query.selectFrom('commerce.product_variant').select('stock').where('id', '=', variantId));
    const available = Math.max(0, Number(left?.stock ?? 0));
    throw new AppError('INSUFFICIENT_STOCK', `items[${index}]: only ${available} left in stock`, {
      field: `items[${index}]`,
      line: index,
      variantId,
      available,
    });
  }
}

/** Gives an unpaid order's reserved stock back (once: the order's state moves in the same transaction). */
export async function releaseStock(tx: RequestContext, orderId: string): Promise<void> {
  await tx.query
    .updateTable('commerce.product_variant as v')
    .from((e) =>
      e
        .selectFrom('commerce.order_line')
        .select((o) => ['variantId', o.fn.sum<number>('quantity').as('quantity')])
        .where('orderId', '=', orderId)
        .where('stockReserved', '=', true)
        .groupBy('variantId')
        .as('l'),
    )
    .set((e) => ({ stock: e('v.stock', '+', e.ref('l.quantity')) }))
    .whereRef('v.id', '=', 'l.variantId')
    .execute();
}
