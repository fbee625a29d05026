import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

export const BOOKING_STATUSES = ['CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/**
 * A booked occurrence. `blockStart`/`blockEnd` include the service's buffers; exclusion
 * constraints on them keep a staff member or a resource from being booked twice.
 */
export const Booking = defineEntity({
  name: 'Booking',
  schema: 'booking',
  tableName: 'booking',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    serviceId: p.uuid(),
    staffId: p.uuid().nullable(),
    resourceId: p.uuid().nullable(),
    customerId: p.uuid().nullable(),
    customerName: p.string(),
    customerEmail: p.string().nullable(),
    customerPhone: p.string().nullable(),
    participants: p.integer(),
    /** service id and start: the seats of one group occurrence share staff and resource. */
    occurrenceKey: p.string(),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    blockStart: p.datetime(),
    blockEnd: p.datetime(),
    status: p.string().$type<BookingStatus>(),
    priceMinor: p.bigint('number'),
    currency: p.string(),
    source: p.string().$type<'customer' | 'guest' | 'merchant'>(),
    cancellationReason: p.text().nullable(),
    cancelledAt: p.datetime().nullable(),
    refundPercent: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Booking = InstanceType<typeof Booking.class>;

/** What happened to a booking: created, rescheduled (from → to), cancelled. */
export const BookingEvent = defineEntity({
  name: 'BookingEvent',
  schema: 'booking',
  tableName: 'booking_event',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    bookingId: p.uuid(),
    type: p.string().$type<'CREATED' | 'RESCHEDULED' | 'CANCELLED' | 'STATUS_CHANGED'>(),
    fromStart: p.datetime().nullable(),
    toStart: p.datetime().nullable(),
    note: p.text().nullable(),
    actor: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type BookingEvent = InstanceType<typeof BookingEvent.class>;
