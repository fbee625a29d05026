/** The service catalogue tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { amount, clearableText, id, optionalText, text, whole } from '../../kernel/schemas.ts';
import type { ServiceChanges } from '../services/services.ts';

export const ServiceId = id('service');

// Ids are checked by the service, which answers whether they are this company's (naming the field).
const ids = z.array(z.string()).nullish();

/** Changes: every field optional; null clears an optional one and leaves a required one as it is. */
export const ServiceUpdate = z.object({
  name: text(120).nullish(),
  description: clearableText(2000),
  prepNotes: clearableText(2000),
  durationMinutes: whole(5, 1440).nullish(),
  price: amount().nullish(),
  capacity: whole(1, 1000).nullish(),
  bufferBeforeMinutes: whole(0, 480).nullish(),
  bufferAfterMinutes: whole(0, 480).nullish(),
  minimumNoticeMinutes: whole(0, 60 * 24 * 90).nullish(),
  bookingHorizonDays: whole(1, 730).nullish(),
  requiresStaff: z.boolean().nullish(),
  requiresResource: z.boolean().nullish(),
  active: z.boolean().nullish(),
  cancellationPolicy: z.object({ hoursBefore: whole(0, 24 * 90), refundPercent: whole(0, 100).nullish(), description: optionalText(500) }).nullish(),
  categoryId: z.string().nullish(),
  staffIds: ids,
  resourceIds: ids,
}) satisfies z.ZodType<ServiceChanges>;

export const NewService = ServiceUpdate.extend({
  name: text(120),
  durationMinutes: whole(5, 1440),
  price: amount(),
}) satisfies z.ZodType<ServiceChanges>;
