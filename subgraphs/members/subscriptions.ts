import type { Subscriptions } from '../kernel/events.ts';
import { customerFromMessage } from './services/message-senders.ts';

/** Other subgraphs' events members handles. */
export const membersSubscriptions: Subscriptions = {
  // Someone unknown wrote on WhatsApp or SMS: they become a customer.
  'messaging.message.received': (tx, event) => customerFromMessage(tx, event.payload),
};
