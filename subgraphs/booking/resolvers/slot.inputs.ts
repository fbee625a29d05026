/** The slot queries' arguments, checked before the service computes any time. */
import { z } from 'zod';
import { calendarDate, id } from '../../kernel/schemas.ts';
import type { SlotDay, SlotRange } from '../services/slots.ts';

/** Any id: a staff member or resource the service does not use is refused by the service, naming the field. */
const choice = z.string().nullish();

export const ServiceDay = z
  .object({ date: calendarDate(), id: id('service'), staffId: choice, resourceId: choice })
  .transform(({ id: serviceId, ...rest }) => ({ serviceId, ...rest })) satisfies z.ZodType<SlotDay>;

export const ServiceRange = z.object({ serviceId: id('service'), startDate: calendarDate(), endDate: calendarDate() }) satisfies z.ZodType<SlotRange>;
