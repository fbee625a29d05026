/** The shipping method tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { amount, id, oneOf, text, whole } from '../../kernel/schemas.ts';
import { SHIPPING_KINDS, type ShippingKind } from '../entities/shipping-method.ts';
import type { ShippingMethodChanges } from '../services/shipping-methods.ts';

export const ShippingMethodId = id('shipping method');

/** Changes: every field optional; null leaves a field as it is, except freeAbove, which it clears. */
export const ShippingMethodUpdate = z.object({
  name: text(120).nullish(),
  kind: oneOf(SHIPPING_KINDS).nullish(),
  price: amount().nullish(),
  freeAbove: amount().nullish(),
  needsAddress: z.boolean().nullish(),
  active: z.boolean().nullish(),
  position: whole(0, 10_000).nullish(),
}) satisfies z.ZodType<ShippingMethodChanges>;

export const NewShippingMethod = ShippingMethodUpdate.extend({ name: text(120), kind: oneOf(SHIPPING_KINDS) }) satisfies z.ZodType<
  ShippingMethodChanges & { name: string; kind: ShippingKind }
>;
