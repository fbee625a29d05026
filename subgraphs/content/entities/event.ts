/** Events and their registrations (one aggregate: places are counted per event). */
import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

export const EVENT_STATES = ['draft', 'published', 'cancelled'] as const;
export type EventState = (typeof EVENT_STATES)[number];

/** An event people register for: when, where, places and price. */
export const Event = defineEntity({
  name: 'Event',
  schema: 'content',
  tableName: 'event',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    title: p.string(),
    slug: p.string(),
    description: p.text().nullable(),
    startsAt: p.datetime(),
    endsAt: p.datetime(),
    venue: p.string().nullable(),
    /** Seats or tickets in all; null for no limit. */
    capacity: p.integer().nullable(),
    priceMinor: p.bigint('number'),
    currency: p.string(),
    status: p.string().$type<EventState>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Event = InstanceType<typeof Event.class>;

export type RegistrationState = 'CONFIRMED' | 'PENDING_PAYMENT' | 'CANCELLED';

/** A registration of one or more places at an event, by a customer or a guest. */
export const EventRegistration = defineEntity({
  name: 'EventRegistration',
  schema: 'content',
  tableName: 'event_registration',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    eventId: p.uuid(),
    customerId: p.uuid().nullable(),
    name: p.string(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    quantity: p.integer(),
    status: p.string().$type<RegistrationState>(),
    amountMinor: p.bigint('number'),
    currency: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type EventRegistration = InstanceType<typeof EventRegistration.class>;
