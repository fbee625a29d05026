/** Events and their registrations (one aggregate: places are counted per event). */
import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

export const EVENT_STATES = ['draft', 'published', 'cancelled'] as const;
export type EventState = (typeof EVENT_STATES)[number];

/** An event people register for: when, where, places and price. */
export const Event = tenantEntity({
  name: 'Event',
  schema: 'content',
  tableName: 'event',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    title: p.text(),
    slug: p.text(),
    description: p.text().nullable(),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    venue: p.text().nullable(),
    /** Seats or tickets in all; null for no limit. */
    capacity: p.integer().nullable(),
    priceMinor: p.bigint('number'),
    currency: p.character().length(3),
    status: p.text().$type<EventState>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'event_company_id_slug_key', properties: ['companyId', 'slug'] }],
  indexes: [{ name: 'event_listing_idx', properties: ['companyId', 'status', 'startsAt'] }],
  checks: [
    { name: 'event_capacity_check', expression: 'capacity is null or capacity > 0' },
    { name: 'event_price_minor_check', expression: 'price_minor >= 0' },
    { name: 'event_status_check', expression: "status in ('draft', 'published', 'cancelled')" },
    { name: 'event_check', expression: 'starts_at < ends_at' },
  ],
});
export type Event = InstanceType<typeof Event.class>;

export type RegistrationState = 'CONFIRMED' | 'PENDING_PAYMENT' | 'CANCELLED';

/** A registration of one or more places at an event, by a customer or a guest. */
export const EventRegistration = tenantEntity({
  name: 'EventRegistration',
  schema: 'content',
  tableName: 'event_registration',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    eventId: p.manyToOne(Event).mapToPk().deferMode('deferred'),
    customerId: p.uuid().nullable(),
    name: p.text(),
    email: p.text().nullable(),
    phone: p.text().nullable(),
    quantity: p.integer(),
    status: p.text().$type<RegistrationState>(),
    amountMinor: p.bigint('number'),
    currency: p.character().length(3),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [
    { name: 'event_registration_event_idx', properties: ['eventId', 'status'] },
    { name: 'event_registration_customer_idx', properties: ['companyId', 'customerId'] },
  ],
  checks: [
    { name: 'event_registration_quantity_check', expression: 'quantity > 0' },
    { name: 'event_registration_status_check', expression: "status in ('CONFIRMED', 'PENDING_PAYMENT', 'CANCELLED')" },
  ],
});
export type EventRegistration = InstanceType<typeof EventRegistration.class>;
