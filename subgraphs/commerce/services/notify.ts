/** Messages to the customer about an order, queued in the transaction of the change that causes them. */
import type { RequestContext } from '../../kernel/context.ts';
import { toMoney } from '../../kernel/money.ts';
import { enqueueMessage } from '../../kernel/outbox/index.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import type { Order } from '../entities/order.ts';

type OrderFacts = Pick<Order, 'id' | 'number' | 'customerEmail' | 'customerPhone' | 'totalMinor' | 'currency' | 'refundedMinor'>;

export async function notifyOrder(
  tx: RequestContext,
  order: OrderFacts,
  what: 'placed' | 'awaiting_payment' | 'paid' | 'fulfilled' | 'cancelled' | 'expired' | 'refunded',
  extra: { refundMinor?: number } = {},
) {
  const to = order.customerEmail ?? order.customerPhone;
  if (!to) return;
  const { name: companyName } = await tenantSettings(tx);
  const total = toMoney(order.totalMinor, order.currency);
  const money = `${total.amount} ${total.currency}`;
  const lines: Record<typeof what, [string, string]> = {
    placed: ['order confirmed', `Thank you for your order #${order.number} (${money}). It is paid and being prepared.`],
    awaiting_payment: ['order received', `We received your order #${order.number} (${money}). It is confirmed once paid.`],
    paid: ['payment received', `We received your payment of ${money} for order #${order.number}.`],
    fulfilled: ['order fulfilled', `Your order #${order.number} is on its way (or ready for pickup).`],
    cancelled: ['order cancelled', `Your order #${order.number} is cancelled.`],
    expired: ['order expired', `Your order #${order.number} was not paid in time and is cancelled.`],
    refunded: ['refund', `We refunded ${toMoney(extra.refundMinor ?? 0, order.currency).amount} ${order.currency} for order #${order.number}.`],
  };
  const [subject, body] = lines[what];
  enqueueMessage(tx, {
    companyId: tx.companyId,
    channel: order.customerEmail ? 'email' : 'sms',
    to,
    subject: `${companyName}: ${subject}`,
    body: `${body} Reference: ${order.id}.`,
  });
}
