/**
 * The domain events booking publishes, declared as ../members/events.ts does (a consumer imports
 * the payload type, never booking's entities).
 */

/** A booking was marked COMPLETED: loyalty awards points for it. */
export interface BookingCompleted {
  bookingId: string;
  serviceId: string;
  serviceName: string;
  customerId: string | null;
  /** The price of all participants less the promotion's discount, in minor units. */
  amountDueMinor: number;
  currency: string;
  startsAt: string;
}

/** A booking was made (by the customer, a guest or the business): campaigns knows who booked when. */
export interface BookingCreated {
  bookingId: string;
  serviceId: string;
  customerId: string | null;
  startsAt: string;
  createdAt: string;
}

declare module '../kernel/events.ts' {
  interface DomainEvents {
    'booking.created': BookingCreated;
    'booking.completed': BookingCompleted;
  }
}
