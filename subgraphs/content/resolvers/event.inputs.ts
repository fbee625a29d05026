/** The event tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { amount, clearableText, email, id, ifGiven, instant, oneOf, phone, text } from '../../kernel/schemas.ts';
import { EVENT_STATES } from '../entities/event.ts';
import type { EventChanges, EventFields, Registration } from '../services/events.ts';
import { idOrSlug } from './keys.inputs.ts';

/** An event by id or slug. */
export const EventKey = idOrSlug();

export const RegistrationId = id('registration');

const capacity = z
  .int('must be 1 to 100000, or null for no limit')
  .min(1, 'must be 1 to 100000, or null for no limit')
  .max(100000, 'must be 1 to 100000, or null for no limit');

/** The slug, when given, is checked where it is chosen (kernel/slugs.ts: format, then whether it is free). */
export const NewEvent = z.object({
  title: text(300),
  slug: z.string().nullish(),
  description: clearableText(20000),
  startsAt: instant(),
  endsAt: instant(),
  venue: clearableText(300),
  capacity: capacity.nullish(),
  price: amount().nullish(),
  status: oneOf(EVENT_STATES).nullish(),
}) satisfies z.ZodType<EventFields>;

/** Changes: every field optional; null clears an optional one (capacity: no limit) and leaves a required one as it is. */
export const EventUpdate = NewEvent.extend({
  title: text(300).nullish(),
  startsAt: instant().nullish(),
  endsAt: instant().nullish(),
}) satisfies z.ZodType<EventChanges>;

export const NewRegistration = z.object({
  eventId: EventKey,
  name: text(200),
  email: ifGiven(email()),
  phone: ifGiven(phone()),
  quantity: z
    .int('must be 1 to 50')
    .min(1, 'must be 1 to 50')
    .max(50, 'must be 1 to 50')
    .nullish()
    .transform((v) => v ?? 1),
}) satisfies z.ZodType<Registration>;
