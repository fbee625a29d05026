import type { Subscriptions } from '../kernel/events.ts';
import { forgetCustomer, upsertCustomer } from './services/customers.ts';
import { recordRegistration } from './services/registration-payments.ts';

/** Other subgraphs' events commerce handles. */
export const commerceSubscriptions: Subscriptions = {
  // Commerce's projection of its company's customers (orders name their customer from it).
  'members.customer.created': (tx, event) => upsertCustomer(tx, event.payload, new Date(event.occurredAt)),
  'members.customer.updated': (tx, event) => upsertCustomer(tx, event.payload, new Date(event.occurredAt)),
  'members.customer.deleted': (tx, event) => forgetCustomer(tx, event.payload.customerId),
  // What content's registrations owe, and until when (services/registration-payments.ts).
  'content.registration.created': (tx, event) => recordRegistration(tx, event.payload),
};
