import type { Subscriptions } from '../kernel/events.ts';
import { forgetCustomer, recordBooking, recordOrderPaid, recordRefund, recordTier, rememberCustomer } from './services/audience.ts';

/**
 * Other subgraphs' events campaigns keeps its audience from, each in a transaction scoped to the
 * event's company, once per event (the kernel records receipts).
 */
export const campaignsSubscriptions: Subscriptions = {
  'members.customer.created': (tx, event) => rememberCustomer(tx, event.payload, new Date(event.occurredAt)),
  'members.customer.updated': (tx, event) => rememberCustomer(tx, event.payload, new Date(event.occurredAt)),
  'members.customer.deleted': (tx, event) => forgetCustomer(tx, event.payload.customerId),
  'booking.created': (tx, event) => recordBooking(tx, event.payload),
  'commerce.order.paid': (tx, event) => recordOrderPaid(tx, event.payload),
  'commerce.order.refunded': (tx, event) => recordRefund(tx, event.payload),
  'loyalty.tier.changed': (tx, event) => recordTier(tx, event.payload),
};
