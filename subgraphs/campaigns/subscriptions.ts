import type { Subscriptions } from '../kernel/events.ts';
import { recordBooking, recordOrderPaid, recordRefund, recordTier } from './services/audience.ts';
import { customers } from './services/customers.ts';
import { recordConsent, recordOutcome } from './services/outcomes.ts';

/**
 * Other subgraphs' events campaigns keeps its audience from, each in a transaction scoped to the
 * event's company, once per event (the kernel records receipts).
 */
export const campaignsSubscriptions: Subscriptions = {
  // Members' customers: their contact facts; an erased one leaves with their suppressions and pending deliveries.
  ...customers.subscriptions,
  'booking.created': (tx, event) => recordBooking(tx, event.payload),
  'commerce.order.paid': (tx, event) => recordOrderPaid(tx, event.payload),
  'commerce.order.refunded': (tx, event) => recordRefund(tx, event.payload),
  'loyalty.tier.changed': (tx, event) => recordTier(tx, event.payload),
  // What became of each message of a campaign: its delivery's status, suppressions, the campaign's end.
  'messaging.message.status': (tx, event) => recordOutcome(tx, event.payload),
  // STOP and START on SMS or WhatsApp: the customer unsubscribed from the channel, or came back.
  'messaging.consent.changed': (tx, event) => recordConsent(tx, event.payload),
};
