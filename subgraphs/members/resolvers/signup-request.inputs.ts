/** Organisation signup's inputs: the request, and its verification by the emailed code. */
import { z } from 'zod';
import { isUuid } from '../../kernel/ids.ts';
import { country, email, text } from '../../kernel/schemas.ts';
import type { NewSignup, SignupVerification } from '../services/signup-requests.ts';
import { sentCode } from './customer.inputs.ts';

export const NewSignupInput = z.object({
  email: email(),
  organisationName: text(120),
  industry: text(80),
  country: text(60).pipe(country()),
}) satisfies z.ZodType<NewSignup>;

export const SignupVerificationInput = z.object({
  requestId: z.string().refine(isUuid, 'must be the requestId returned by the signup request'),
  code: sentCode,
}) satisfies z.ZodType<SignupVerification>;
