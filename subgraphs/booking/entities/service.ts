import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

/** Until how many hours before the start a booking may be cancelled or moved, and the refund then. */
export interface CancellationPolicy {
  hoursBefore: number;
  refundPercent: number;
  description?: string;
}

/** Something a customer books: a duration, a price, seats, and what it needs (staff, a resource). */
export const Service = defineEntity({
  name: 'Service',
  schema: 'booking',
  tableName: 'service',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    categoryId: p.uuid().nullable(),
    name: p.string(),
    description: p.text().nullable(),
    prepNotes: p.text().nullable(),
    durationMinutes: p.integer(),
    priceMinor: p.bigint('number'),
    currency: p.string(),
    capacity: p.integer(),
    requiresStaff: p.boolean(),
    requiresResource: p.boolean(),
    bufferBeforeMinutes: p.integer(),
    bufferAfterMinutes: p.integer(),
    minimumNoticeMinutes: p.integer(),
    bookingHorizonDays: p.integer(),
    cancellationPolicy: p.json<CancellationPolicy>(),
    active: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Service = InstanceType<typeof Service.class>;

/** Which staff members perform a service. */
export const ServiceStaff = defineEntity({
  name: 'ServiceStaff',
  schema: 'booking',
  tableName: 'service_staff',
  properties: {
    serviceId: p.uuid().primary(),
    staffId: p.uuid().primary(),
    companyId: p.uuid(),
  },
  filters: tenantFilter,
});
export type ServiceStaff = InstanceType<typeof ServiceStaff.class>;

/** Which resources (rooms, equipment) a service can use. */
export const ServiceResource = defineEntity({
  name: 'ServiceResource',
  schema: 'booking',
  tableName: 'service_resource',
  properties: {
    serviceId: p.uuid().primary(),
    resourceId: p.uuid().primary(),
    companyId: p.uuid(),
  },
  filters: tenantFilter,
});
export type ServiceResource = InstanceType<typeof ServiceResource.class>;
