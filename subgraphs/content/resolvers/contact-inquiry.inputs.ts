/** The contact form's input, checked before the service sees it. */
import { z } from 'zod';
import { email, ifGiven, phone, text } from '../../kernel/schemas.ts';
import type { Inquiry } from '../services/contact-inquiries.ts';

export const NewInquiry = z
  .object({ name: text(200), message: text(5000), email: ifGiven(email()), phone: ifGiven(phone()) })
  .refine((v) => !!v.email || !!v.phone, {
    message: 'an email or a phone is required so the business can answer',
    path: ['email'],
  }) satisfies z.ZodType<Inquiry>;
