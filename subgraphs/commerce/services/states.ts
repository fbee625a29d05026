/** The moves of commerce's states, declared once; every service that changes a state asserts the move. */
import { stateMachine } from '../../kernel/states.ts';
import type { OrderStatus } from '../entities/order.ts';
import type { PaymentStatus } from '../entities/payment.ts';

/**
 * An order waits for payment (PENDING_PAYMENT), is PAID, then FULFILLED. Unpaid, it is CANCELLED
 * (by the merchant) or EXPIRED (by the payment window); both free its stock and are final. A paid
 * order is refunded in part (PARTIALLY_REFUNDED, again as often as money is left) or in whole
 * (REFUNDED, final); a partly refunded order can still be fulfilled.
 */
export const orderStates = stateMachine<OrderStatus>('order', {
  PENDING_PAYMENT: ['PAID', 'CANCELLED', 'EXPIRED'],
  PAID: ['FULFILLED', 'PARTIALLY_REFUNDED', 'REFUNDED'],
  FULFILLED: ['PARTIALLY_REFUNDED', 'REFUNDED'],
  PARTIALLY_REFUNDED: ['PARTIALLY_REFUNDED', 'REFUNDED', 'FULFILLED'],
  CANCELLED: [],
  EXPIRED: [],
  REFUNDED: [],
});

/**
 * A payment moves as Stripe's PaymentIntent does. A failed attempt goes back to
 * requires_payment_method (it can be paid again); succeeded and canceled are final, so a repeated
 * or late "succeeded" never pays twice.
 */
const open: PaymentStatus[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'succeeded',
  'canceled',
];
export const paymentStates = stateMachine<PaymentStatus>('payment', {
  requires_payment_method: open,
  requires_confirmation: open,
  requires_action: open.filter((s) => s !== 'requires_confirmation'),
  processing: ['succeeded', 'requires_payment_method', 'requires_capture', 'canceled'],
  requires_capture: ['succeeded', 'canceled'],
  succeeded: [],
  canceled: [],
});
