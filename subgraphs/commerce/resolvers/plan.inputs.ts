/** The plan tools' inputs, checked and normalised before the services see them. */
import { z } from 'zod';
import { text } from '../../kernel/schemas.ts';
import type { PlanCheckoutInput } from '../services/plan-checkout.ts';
import { ReturnUrl } from './order.inputs.ts';

export const PlanId = text(40).transform((v) => v.toLowerCase());

export const PlanCheckout = z.object({
  plan: PlanId,
  paymentMethodId: z.string().nullish(),
  returnUrl: ReturnUrl,
}) satisfies z.ZodType<PlanCheckoutInput>;
