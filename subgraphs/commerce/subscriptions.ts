import type { Subscriptions } from '../kernel/events.ts';
import { customers } from './services/customers.ts';
import { recordRegistration } from './services/registration-payments.ts';

/** Other subgraphs' events commerce handles. */
export const commerceSubscriptions: Subscriptions = {
  // Commerce's projection of its company's customers (orders name their customer from it).
  ...customers.subscriptions,
  // What content's registrations owe, and until when (services/registration-payments.ts).
  'content.registration.created': (tx, event) => recordRegistration(tx, event.payload),
};
