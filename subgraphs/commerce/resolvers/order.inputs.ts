/** The order tools' inputs (checkout, the merchant's orders), checked and normalised before the service sees them. */
import { z } from 'zod';
import { amount, email, id, instant, oneOf, optionalText, phone, text, whole } from '../../kernel/schemas.ts';
import { ORDER_STATUSES, type ShippingAddress } from '../entities/order.ts';
import type { CheckoutInput, GuestDetails, OrderListArgs, PosOrderInput } from '../services/orders.ts';

export const OrderId = id('order');
/** The customer a merchant orders for (whether it is one of the company's is the service's to check). */
export const AccountId = id('customer');

/** Where a provider's page returns the customer: an http(s) URL, as the URL parser writes it; empty for none. */
export const ReturnUrl = z
  .string()
  .nullish()
  .transform((v, ctx) => {
    if (v == null || v === '') return null;
    const url = URL.parse(v);
    if (url?.protocol === 'https:' || url?.protocol === 'http:') return url.toString();
    ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL' });
    return z.NEVER;
  });

/** A value that may be left empty: null or "" is nothing given. */
const unlessEmpty = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === null || v === '' ? undefined : v), schema.optional());

const item = z
  .object({
    productId: id('product').nullish(),
    variantId: id('variant').nullish(),
    quantity: whole(1, 1000),
  })
  .refine((i) => i.productId != null || i.variantId != null, { path: ['productId'], message: 'or variantId is required' });

const items = z.array(item).min(1, 'needs at least one line').max(50, 'must have at most 50 lines');

const guest = z.object({
  // A guest must give a name, a signed-in customer need not: the service knows which.
  name: optionalText(200),
  email: unlessEmpty(email()),
  phone: unlessEmpty(phone()),
}) satisfies z.ZodType<GuestDetails>;

const address = z.object({
  line1: text(200),
  line2: optionalText(200).transform((v) => v ?? null),
  city: text(120),
  postalCode: text(20),
  region: optionalText(120).transform((v) => v ?? null),
  country: text(2)
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z]{2}$/.test(v), 'must be a two-letter country code'),
}) satisfies z.ZodType<ShippingAddress>;

/** Codes are compared upper-cased; blank is none. */
const promotionCode = optionalText(64).transform((v) => v?.toUpperCase() ?? null);

/** The storefront's checkout, checked in the order a client fills it in. */
export const Checkout = z.object({
  customer: guest.nullish(),
  items,
  paymentMethodId: z.string().nullish(),
  returnUrl: ReturnUrl,
  promotionCode,
  shippingMethodId: id('shipping method').nullish(),
  shippingAddress: address.nullish(),
}) satisfies z.ZodType<CheckoutInput>;

export const PosOrder = Checkout.omit({ customer: true, returnUrl: true }) satisfies z.ZodType<PosOrderInput>;

export const OrderFilter = z.object({
  status: oneOf(ORDER_STATUSES).nullish(),
  customerId: id('customer').nullish(),
  from: instant().nullish(),
  to: instant().nullish(),
  limit: z.number().nullish(),
  offset: z.number().nullish(),
}) satisfies z.ZodType<OrderListArgs>;

export const CancelReason = optionalText(500);

/** A refund in major units of the order's currency; the whole rest when absent. */
export const RefundAmount = amount().nullish();
