/** The storefront member tools' inputs: addresses, sign-in codes, registration and customer ids. */
import { z } from 'zod';
import { email, id, phone, text } from '../../kernel/schemas.ts';
import type { CustomerLookup, Registration, SignInAddress, SignInCode } from '../services/customers.ts';

export const CustomerId = id('customer');

/** The 6-digit code a customer or an organisation owner was sent, as digits ("012345"). */
export const sentCode = z
  .string({ error: 'must be the 6-digit code that was sent' })
  .trim()
  .regex(/^\d{6}$/, 'must be the 6-digit code that was sent');

/** An empty string or null is no value (a form's empty field); blank text is still "is required". */
const given = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

/** Where a code goes: the email when one is given (a phone beside it is not looked at), else the phone. */
const preferEmail = (v: unknown) => {
  if (!v || typeof v !== 'object') return v;
  const { email, phone } = v as { email?: unknown; phone?: unknown };
  return { ...v, email: email || undefined, phone: email ? undefined : phone || undefined };
};
const address = { email: email().optional(), phone: phone().optional() };

export const OtpRequest = z.preprocess(preferEmail, z.object(address)) satisfies z.ZodType<SignInAddress>;

export const OtpVerification = z.preprocess(preferEmail, z.object({ ...address, code: sentCode })) satisfies z.ZodType<SignInCode>;

/** Exactly one address to match: an email, or else a phone. */
export const CustomerContact = z.preprocess(preferEmail, z.object(address)).transform((v, ctx): CustomerLookup => {
  if (v.email) return { email: v.email };
  if (v.phone) return { phone: v.phone };
  ctx.addIssue({ code: 'custom', message: 'give an email or a phone', path: ['email'] });
  return z.NEVER;
});

export const NewRegistration = z.object({
  name: text(100),
  lastName: given(text(100)),
  email: given(email()),
  phone: given(phone()),
  source: given(text(100)),
  attributes: z.record(z.string(), z.unknown()).nullish(),
}) satisfies z.ZodType<Registration>;
