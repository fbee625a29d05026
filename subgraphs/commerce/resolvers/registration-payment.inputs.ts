/** The registration payment's inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { id } from '../../kernel/schemas.ts';
import type { RegistrationPaymentChoice } from '../services/registration-payments.ts';
import { ReturnUrl } from './order.inputs.ts';

/** Content's registration ids, compared in lower case as content writes them. */
export const RegistrationId = id('registration').transform((v) => v.toLowerCase());

export const PaymentChoice = z.object({
  paymentMethodId: z.string().nullish(),
  returnUrl: ReturnUrl,
}) satisfies z.ZodType<RegistrationPaymentChoice>;
