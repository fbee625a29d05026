import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';
import { Order } from './order.ts';

/** Stripe's PaymentIntent status names, so a Stripe adapter maps one to one. */
export const PAYMENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'canceled',
  'succeeded',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * One attempt to collect money through a provider: for an order, for an event registration
 * (content's; commerce keeps only its id), or for a month of the platform's paid plan. The provider's own id and status are mirrored here;
 * refunds add up in `refundedMinor`.
 */
export const Payment = tenantEntity({
  name: 'Payment',
  schema: 'commerce',
  tableName: 'payment',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    orderId: p.manyToOne(Order).mapToPk().nullable().deleteRule('no action').deferMode('deferred'),
    registrationId: p.uuid().nullable(),
    /** The plan a month of which this payment buys for the company itself (kernel/plans.ts). */
    planId: p.text().nullable(),
    provider: p.text(),
    providerPaymentId: p.text().nullable(),
    paymentMethodId: p.text(),
    status: p.text().$type<PaymentStatus>(),
    amountMinor: p.bigint('number'),
    refundedMinor: p.bigint('number'),
    currency: p.character().length(3),
    returnUrl: p.text().nullable(),
    nextActionUrl: p.text().nullable(),
    failureCode: p.text().nullable(),
    failureMessage: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'payment_provider_id_uniq', properties: ['provider', 'providerPaymentId'] }],
  indexes: [
    { name: 'payment_order_idx', properties: ['orderId'] },
    { name: 'payment_registration_idx', properties: ['companyId', 'registrationId'] },
  ],
  checks: [
    { name: 'payment_status_check', expression: `status in (${PAYMENT_STATUSES.map((s) => `'${s}'`).join(', ')})` },
    { name: 'payment_amount_minor_check', expression: 'amount_minor >= 0' },
    { name: 'payment_refunded_minor_check', expression: 'refunded_minor >= 0 and refunded_minor <= amount_minor' },
    // A payment pays for exactly one thing: an order, an event registration or a month of a plan.
    { name: 'payment_purpose_check', expression: 'num_nonnulls(order_id, registration_id, plan_id) = 1' },
  ],
});
export type Payment = InstanceType<typeof Payment.class>;
