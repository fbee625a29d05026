/**
 * The domain events commerce publishes (the catalog publishes none): orders and payments, declared
 * as ../members/events.ts does.
 */
/** An order was paid (its stock is sold): loyalty awards points, campaigns count buyers. */
export interface OrderPaid {
  orderId: string;
  number: number;
  customerId: string | null;
  customerEmail: string | null;
  channel: 'online' | 'pos';
  totalMinor: number;
  currency: string;
  lines: { productId: string; variantId: string; quantity: number; totalMinor: number }[];
}

/** Money of a paid order was given back (in part or in whole). */
export interface OrderRefunded {
  orderId: string;
  number: number;
  customerId: string | null;
  amountMinor: number;
  /** Refunded so far, this refund included. */
  refundedMinor: number;
  /** The order's total, so a consumer can take back its share. */
  totalMinor: number;
  currency: string;
  status: 'REFUNDED' | 'PARTIALLY_REFUNDED';
}

/** An unpaid order ended: cancelled by the business or expired; its stock was released. */
export interface OrderCancelled {
  orderId: string;
  number: number;
  customerId: string | null;
  status: 'CANCELLED' | 'EXPIRED';
  reason: string | null;
}

/** A payment succeeded: for an order, or for an event registration (content confirms it). */
export interface PaymentSucceeded {
  paymentId: string;
  orderId: string | null;
  registrationId: string | null;
  amountMinor: number;
  currency: string;
  provider: string;
}

/** A paid event registration's payment window ended unpaid: content frees its seats. */
export interface RegistrationPaymentExpired {
  registrationId: string;
}

declare module '../kernel/events.ts' {
  interface DomainEvents {
    'commerce.order.paid': OrderPaid;
    'commerce.order.refunded': OrderRefunded;
    'commerce.order.cancelled': OrderCancelled;
    'commerce.payment.succeeded': PaymentSucceeded;
    'commerce.registration.payment-expired': RegistrationPaymentExpired;
  }
}
