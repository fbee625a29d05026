/**
 * The booking tools' inputs, checked and normalised before the service sees them. Each names its
 * fields as its caller does (`slotTime`, `customer.email` in the tools; `occurrenceStart`,
 * `customerEmail` on the guest route) and hands the service its own request.
 */
import { z } from 'zod';
import { calendarDate, email, id, ifGiven, instant, optionalText, phone, text } from '../../kernel/schemas.ts';
import type { BookingRequest, RescheduleRequest } from '../services/bookings.ts';

export const BookingId = id('booking');

/** A day in the company time zone; empty is every day. */
export const BookingDay = ifGiven(calendarDate());

/** Why it is cancelled, kept in the history (the first 500 characters); blank is no reason. */
export const CancelReason = z
  .string()
  .nullish()
  .transform((v) => v?.trim().slice(0, 500) || null);

const participants = z.int('must be at least 1').min(1, 'must be at least 1').nullish();
const promotionCode = optionalText(64).transform((v) => v?.toUpperCase());
/** Any id: a staff member or resource the service does not use is refused by the service, naming the field. */
const choice = z.string().nullish();

export const NewBooking = z
  .object({
    slotTime: instant(),
    serviceId: id('service'),
    participants,
    customer: z.object({ name: text(120), email: ifGiven(email()), phone: ifGiven(phone()) }),
    promotionCode,
    staffId: choice,
    resourceId: choice,
  })
  .transform(({ slotTime, customer, ...rest }) => ({
    ...rest,
    start: slotTime,
    customerName: customer.name,
    customerEmail: customer.email,
    customerPhone: customer.phone,
  })) satisfies z.ZodType<BookingRequest>;

/** A guest leaves a phone number; the end they give must match the service's duration. */
export const GuestBooking = z
  .object({
    occurrenceStart: instant(),
    serviceId: id('service'),
    occurrenceEnd: instant(),
    customerName: text(120),
    promotionCode,
    customerEmail: ifGiven(email()),
    customerPhone: phone(),
    staffId: choice,
    resourceId: choice,
  })
  .transform(({ occurrenceStart, occurrenceEnd, ...rest }) => ({ ...rest, start: occurrenceStart, end: occurrenceEnd })) satisfies z.ZodType<BookingRequest>;

/** The merchant's move: a new start, and optionally who or what takes it. */
export const BookingMove = z
  .object({ slotTime: instant(), staffId: choice, resourceId: choice })
  .transform(({ slotTime, ...rest }) => ({ ...rest, start: slotTime })) satisfies z.ZodType<RescheduleRequest>;

/** The customer's move: the new start and end. */
export const MyBookingMove = z
  .object({ occurrenceStart: instant(), occurrenceEnd: instant(), staffId: choice, resourceId: choice })
  .transform(({ occurrenceStart, occurrenceEnd, ...rest }) => ({ ...rest, start: occurrenceStart, end: occurrenceEnd })) satisfies z.ZodType<RescheduleRequest>;
