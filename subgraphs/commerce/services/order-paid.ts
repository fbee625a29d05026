/** An order becoming paid: its event (the stock it reserved is now sold) and the customer's message. */
import type { RequestContext } from '../../kernel/context.ts';
import type { Order } from '../entities/order.ts';
import { notifyOrder } from './notify.ts';
import { orderStates } from './states.ts';

export function publishPaid(
  tx: RequestContext,
  order: Pick<Order, 'id' | 'number' | 'customerId' | 'customerEmail' | 'channel' | 'totalMinor' | 'currency'>,
  lines: { productId: string; variantId: string; quantity: number; totalMinor: number }[],
) {
  tx.publish('commerce.order.paid', {
    orderId: order.id,
    number: order.number,
    customerId: order.customerId ?? null,
    customerEmail: order.customerEmail ?? null,
    channel: order.channel,
    totalMinor: order.totalMinor,
    currency: order.currency,
    lines: lines.map((l) => ({ productId: l.productId, variantId: l.variantId, quantity: l.quantity, totalMinor: l.totalMinor })),
  });
}

/** Moves a PENDING_PAYMENT order to PAID (inside the paying transaction): the reserved stock is now sold. */
export async function markPaidInTx(tx: RequestContext, order: Order): Promise<void> {
  orderStates.assert(order.status, 'PAID');
  order.status = 'PAID';
  order.paidAt = tx.now();
  order.expiresAt = null;
  const lines = await tx.all(
    tx.query.selectFrom('commerce.order_line').select(['productId', 'variantId', 'quantity', 'totalMinor']).where('orderId', '=', order.id).orderBy('position'),
  );
  publishPaid(tx, order, lines);
  await notifyOrder(tx, order, 'paid');
}
