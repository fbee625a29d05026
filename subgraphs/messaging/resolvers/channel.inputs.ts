/** The channel tools' inputs, checked and normalised before the services see them. */
import { z } from 'zod';
import { phone, text } from '../../kernel/schemas.ts';
import type { SmsAccount, WhatsappAccount } from '../services/channels.ts';

export const WhatsappAccountInput = z.object({
  phoneNumberId: z
    .string()
    .trim()
    .regex(/^\d{6,30}$/, 'must be the Cloud API phone number id (digits)'),
  accessToken: text(2000),
}) satisfies z.ZodType<WhatsappAccount>;

export const SmsAccountInput = z.object({
  accountSid: z
    .string()
    .trim()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio account SID (AC and 32 hexadecimal digits)'),
  authToken: text(200),
  fromNumber: phone(),
}) satisfies z.ZodType<SmsAccount>;
