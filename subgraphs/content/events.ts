/**
 * The domain events content publishes, declared as ../members/events.ts does (a consumer imports
 * the payload type, never content's entities).
 */

/** A registration was made: what commerce needs to collect a paid one's amount. */
export interface RegistrationCreated {
  registrationId: string;
  eventId: string;
  eventTitle: string;
  customerId: string | null;
  email: string | null;
  /** PENDING_PAYMENT for a paid event (seats held until paid or expired), CONFIRMED for a free one. */
  status: 'CONFIRMED' | 'PENDING_PAYMENT';
  /** Seats × the event's price, in minor units. */
  amountMinor: number;
  currency: string;
  createdAt: string;
}

declare module '../kernel/events.ts' {
  interface DomainEvents {
    'content.registration.created': RegistrationCreated;
  }
}
