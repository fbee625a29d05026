import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';
import { Resource } from './resource.ts';
import { Service } from './service.ts';
import { StaffMember } from './staff-member.ts';

export const BOOKING_STATUSES = ['CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/**
 * A booked occurrence. `blockStart`/`blockEnd` include the service's buffers; exclusion
 * constraints on them keep a staff member or a resource from being booked twice.
 */
export const Booking = tenantEntity({
  name: 'Booking',
  schema: 'booking',
  tableName: 'booking',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    serviceId: p.manyToOne(Service).mapToPk().deferMode('deferred'),
    staffId: p.manyToOne(StaffMember).mapToPk().nullable().deleteRule('no action').deferMode('deferred'),
    resourceId: p.manyToOne(Resource).mapToPk().nullable().deleteRule('no action').deferMode('deferred'),
    customerId: p.uuid().nullable(),
    customerName: p.text(),
    customerEmail: p.text().nullable(),
    customerPhone: p.text().nullable(),
    participants: p.integer(),
    /** service id and start: the seats of one group occurrence share staff and resource. */
    occurrenceKey: p.text(),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    blockStart: p.datetime(),
    blockEnd: p.datetime(),
    status: p.text().$type<BookingStatus>(),
    priceMinor: p.bigint('number'),
    currency: p.character().length(3),
    /** The promotion code it was booked with (upper-case), and what it took off the price of all participants. */
    promotionCode: p.text().nullable(),
    discountMinor: p.bigint('number'),
    source: p.text().$type<'customer' | 'guest' | 'merchant'>(),
    cancellationReason: p.text().nullable(),
    cancelledAt: p.datetime().nullable(),
    refundPercent: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [
    { name: 'booking_company_start_idx', properties: ['companyId', 'startsAt'] },
    { name: 'booking_service_start_idx', properties: ['serviceId', 'startsAt'], where: "status = 'CONFIRMED'" },
    { name: 'booking_customer_idx', properties: ['companyId', 'customerId'] },
    { name: 'booking_contact_idx', properties: ['companyId', 'customerEmail', 'customerPhone'] },
  ],
  checks: [
    { name: 'booking_participants_check', expression: 'participants >= 1' },
    { name: 'booking_discount_minor_check', expression: 'discount_minor >= 0' },
    { name: 'booking_status_check', expression: "status in ('CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW')" },
    { name: 'booking_check', expression: 'starts_at < ends_at and block_start <= starts_at and block_end >= ends_at' },
    {
      name: 'booking_staff_no_overlap',
      expression:
        "exclude using gist (staff_id with =, tstzrange(block_start, block_end) with &&, occurrence_key with <>) where (status = 'CONFIRMED' and staff_id is not null)",
    },
    {
      name: 'booking_resource_no_overlap',
      expression:
        "exclude using gist (resource_id with =, tstzrange(block_start, block_end) with &&, occurrence_key with <>) where (status = 'CONFIRMED' and resource_id is not null)",
    },
  ],
});
export type Booking = InstanceType<typeof Booking.class>;

/** What happened to a booking: created, rescheduled (from → to), cancelled. */
export const BookingEvent = tenantEntity({
  name: 'BookingEvent',
  schema: 'booking',
  tableName: 'booking_event',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    bookingId: p.manyToOne(Booking).mapToPk().deferMode('deferred'),
    type: p.text().$type<'CREATED' | 'RESCHEDULED' | 'CANCELLED' | 'STATUS_CHANGED'>(),
    fromStart: p.datetime().nullable(),
    toStart: p.datetime().nullable(),
    note: p.text().nullable(),
    actor: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'booking_event_booking_idx', properties: ['bookingId', 'createdAt'] }],
});
export type BookingEvent = InstanceType<typeof BookingEvent.class>;
