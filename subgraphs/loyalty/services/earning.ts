/**
 * Points from other subgraphs' events: earned when an order is paid or a booking completed,
 * taken back when an order is refunded. Each entry's key names its cause, so a redelivered event
 * changes nothing.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { minorDigits } from '../../kernel/money.ts';
import type { BookingCompleted } from '../../booking/events.ts';
import type { OrderPaid, OrderRefunded } from '../../commerce/events.ts';
import { credit, debit } from './ledger.ts';
import { pointsFor, rulesOf } from './rules.ts';

const expiryOf = (tx: RequestContext, days: number | null) => (days == null ? null : new Date(tx.now().getTime() + days * 86_400_000));

export async function earnForOrder(tx: RequestContext, order: OrderPaid): Promise<void> {
  if (!order.customerId) return;
  const rules = await rulesOf(tx);
  const points = pointsFor(order.totalMinor, minorDigits(order.currency), rules.pointsPerCurrencyUnit);
  if (points <= 0) return;
  await credit(
    tx,
    'EARN',
    {
      customerId: order.customerId,
      points,
      reason: `Order #${order.number}`,
      sourceType: 'order',
      sourceId: order.orderId,
      key: `order:${order.orderId}:earn`,
    },
    expiryOf(tx, rules.expiryDays),
  );
}

/**
 * A refund takes back the points the order earned, in proportion to what has been refunded so far
 * (less what earlier refunds took back), never below a zero balance.
 */
export async function reverseForRefund(tx: RequestContext, refund: OrderRefunded): Promise<void> {
  if (!refund.customerId) return;
  const earned = await tx.first(tx.query.selectFrom('loyalty.ledger_entry').select('points').where('idempotencyKey', '=', `order:${refund.orderId}:earn`));
  if (!earned) return;
  const taken = await tx.first(
    tx.query
      .selectFrom('loyalty.ledger_entry')
      .select((eb) => eb.fn.coalesce(eb.neg(eb.fn.sum<string | number>('points')), eb.lit(0)).as('reversed'))
      .where('type', '=', 'REVERSAL')
      .where('sourceType', '=', 'order')
      .where('sourceId', '=', refund.orderId),
  );
  const due = refund.status === 'REFUNDED' ? earned.points : Math.floor((earned.points * refund.refundedMinor) / refund.totalMinor);
  const points = due - Number(taken?.reversed ?? 0);
  if (points <= 0) return;
  await debit(
    tx,
    'REVERSAL',
    {
      customerId: refund.customerId,
      points,
      reason: `Refund of order #${refund.number}`,
      sourceType: 'order',
      sourceId: refund.orderId,
      key: `order:${refund.orderId}:refund:${refund.refundedMinor}`,
    },
    { upTo: true },
  );
}

export async function earnForBooking(tx: RequestContext, booking: BookingCompleted): Promise<void> {
  if (!booking.customerId) return;
  const rules = await rulesOf(tx);
  const points = rules.pointsPerBooking + pointsFor(booking.amountDueMinor, minorDigits(booking.currency), rules.bookingPointsPerCurrencyUnit);
  if (points <= 0) return;
  await credit(
    tx,
    'EARN',
    {
      customerId: booking.customerId,
      points,
      reason: `Booking: ${booking.serviceName}`,
      sourceType: 'booking',
      sourceId: booking.bookingId,
      key: `booking:${booking.bookingId}:earn`,
    },
    expiryOf(tx, rules.expiryDays),
  );
}
