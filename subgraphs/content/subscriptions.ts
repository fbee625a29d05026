import type { Subscriptions } from '../kernel/events.ts';
import { customers } from './services/customers.ts';
import { cancelUnpaidRegistration, confirmPaidRegistration } from './services/registration-payments.ts';

/**
 * Other subgraphs' events content handles. Each handler runs in a transaction the kernel opened,
 * scoped to the event's company, at least once (the kernel skips a repeat of one event id; the
 * handlers are idempotent anyway).
 */
export const contentSubscriptions: Subscriptions = {
  // Content's projection of its company's customers (survey invitations check against it).
  ...customers.subscriptions,
  // A paid registration is settled by commerce: confirmed once its payment succeeds, cancelled
  // (its seats freed) when its payment window ends unpaid.
  'commerce.payment.succeeded': async (tx, event) => {
    if (event.payload.registrationId) await confirmPaidRegistration(tx, event.payload.registrationId);
  },
  'commerce.registration.payment-expired': (tx, event) => cancelUnpaidRegistration(tx, event.payload.registrationId),
};
