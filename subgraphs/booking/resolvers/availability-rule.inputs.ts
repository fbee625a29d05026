/** Working hours as staff members and resources are given them: a weekday or a date, and HH:MM times. */
import { z } from 'zod';
import { calendarDate, ifGiven } from '../../kernel/schemas.ts';
import type { AvailabilityHours } from '../services/availability-rules.ts';

const DAY = 'must be 0 (Sunday) to 6 (Saturday)';
const TIME = 'must be a time as HH:MM (00:00 to 24:00)';

/** "09:30" → 570 minutes after midnight; "24:00" is the end of the day. */
const time = z
  .string()
  .regex(/^([01]\d|2[0-4]):([0-5]\d)$/, TIME)
  .transform((v) => Number(v.slice(0, 2)) * 60 + Number(v.slice(3)))
  .refine((minutes) => minutes <= 24 * 60, TIME);

/** Blank times and dates are left out (a day off; weekly hours). */
export const DayHours = z.object({
  dayOfWeek: z.int(DAY).min(0, DAY).max(6, DAY).nullish(),
  date: ifGiven(calendarDate()),
  startTime: ifGiven(time),
  endTime: ifGiven(time),
}) satisfies z.ZodType<AvailabilityHours>;
