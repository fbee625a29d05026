/**
 * What commerce asks of a payment provider. Shaped on Stripe's PaymentIntent (its status names,
 * create/retrieve/capture/cancel/refund, signed webhook events), so a Stripe adapter is one more
 * implementation of this interface; the built-in sandbox (sandbox.ts) is the first.
 */
import type { PaymentStatus } from '../../entities/payment.ts';

export interface CreateIntentInput {
  /** Our payment id: the provider keeps it as metadata and an idempotency key. */
  paymentId: string;
  companyId: string;
  amountMinor: number;
  currency: string;
  /** The payment method the customer chose (for the sandbox: sandbox, sandbox_success, sandbox_decline, sandbox_requires_action). */
  paymentMethodId: string;
  /** Where the hosted payment page sends the customer back. */
  returnUrl: string | null;
  description: string;
}

/** What the provider says of an intent. */
export interface IntentState {
  providerPaymentId: string;
  status: PaymentStatus;
  /** Where to send the customer to finish (3-D Secure, a hosted page), when the status is requires_action. */
  nextActionUrl: string | null;
  failureCode?: string | null;
  failureMessage?: string | null;
}

export interface RefundResult {
  refundId: string;
  amountMinor: number;
  status: 'succeeded' | 'pending' | 'failed';
}

/** Stripe's event type names; commerce moves payments on these only. */
export type ProviderEventType =
  'payment_intent.succeeded' | 'payment_intent.payment_failed' | 'payment_intent.canceled' | 'payment_intent.requires_action' | 'charge.refunded';

/** A verified webhook event, in the provider's words. */
export interface ProviderEvent {
  /** The provider's event id: a repeat delivery carries the same one. */
  id: string;
  type: ProviderEventType;
  providerPaymentId: string;
  /** Our payment id, from the intent's metadata. */
  paymentId: string;
  companyId: string;
  failureCode?: string | null;
  failureMessage?: string | null;
}

export interface PaymentProvider {
  readonly name: string;
  createIntent(input: CreateIntentInput): Promise<IntentState>;
  status(providerPaymentId: string): Promise<IntentState>;
  capture(providerPaymentId: string): Promise<IntentState>;
  cancel(providerPaymentId: string): Promise<IntentState>;
  refund(providerPaymentId: string, amountMinor: number): Promise<RefundResult>;
  /**
   * Verifies a webhook delivery (signature over the raw body and its timestamp, within the
   * tolerance) and parses it; throws WebhookSignatureError when it does not verify.
   */
  parseWebhook(rawBody: string, headers: Record<string, string | undefined>): ProviderEvent;
}

export class WebhookSignatureError extends Error {}
