import type { Subscriptions } from '../kernel/events.ts';
import { customers } from './services/customers.ts';
import { earnForBooking, earnForOrder, reverseForRefund } from './services/earning.ts';

/**
 * Other subgraphs' events loyalty handles, each in a transaction scoped to the event's company, at
 * least once: every ledger entry is keyed by its cause, so a repeat earns nothing.
 */
export const loyaltySubscriptions: Subscriptions = {
  // Loyalty's projection of its company's customers (points are kept for them only).
  ...customers.subscriptions,
  'commerce.order.paid': (tx, event) => earnForOrder(tx, event.payload),
  'commerce.order.refunded': (tx, event) => reverseForRefund(tx, event.payload),
  'booking.completed': (tx, event) => earnForBooking(tx, event.payload),
};
