import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';
import { Resource } from './resource.ts';
import { ServiceCategory } from './service-category.ts';
import { StaffMember } from './staff-member.ts';

/** Until how many hours before the start a booking may be cancelled or moved, and the refund then. */
export interface CancellationPolicy {
  hoursBefore: number;
  refundPercent: number;
  description?: string;
}

/** Something a customer books: a duration, a price, seats, and what it needs (staff, a resource). */
export const Service = tenantEntity({
  name: 'Service',
  schema: 'booking',
  tableName: 'service',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    categoryId: p.manyToOne(ServiceCategory).mapToPk().nullable().deleteRule('no action').deferMode('deferred'),
    name: p.text(),
    description: p.text().nullable(),
    prepNotes: p.text().nullable(),
    durationMinutes: p.integer(),
    priceMinor: p.bigint('number'),
    currency: p.character().length(3),
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
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  indexes: [{ name: 'service_company_idx', properties: ['companyId', 'name'] }],
  checks: [
    { name: 'service_duration_minutes_check', expression: 'duration_minutes >= 5 and duration_minutes <= 1440' },
    { name: 'service_price_minor_check', expression: 'price_minor >= 0' },
    { name: 'service_capacity_check', expression: 'capacity >= 1 and capacity <= 1000' },
    { name: 'service_buffer_before_minutes_check', expression: 'buffer_before_minutes >= 0' },
    { name: 'service_buffer_after_minutes_check', expression: 'buffer_after_minutes >= 0' },
    { name: 'service_minimum_notice_minutes_check', expression: 'minimum_notice_minutes >= 0' },
    { name: 'service_booking_horizon_days_check', expression: 'booking_horizon_days >= 1 and booking_horizon_days <= 730' },
  ],
});
export type Service = InstanceType<typeof Service.class>;

/** Which staff members perform a service. */
export const ServiceStaff = tenantEntity({
  name: 'ServiceStaff',
  schema: 'booking',
  tableName: 'service_staff',
  properties: {
    serviceId: p.manyToOne(Service).mapToPk().primary().deleteRule('cascade').updateRule('no action').deferMode('deferred'),
    staffId: p.manyToOne(StaffMember).mapToPk().primary().deleteRule('cascade').updateRule('no action').deferMode('deferred'),
  },
});
export type ServiceStaff = InstanceType<typeof ServiceStaff.class>;

/** Which resources (rooms, equipment) a service can use. */
export const ServiceResource = tenantEntity({
  name: 'ServiceResource',
  schema: 'booking',
  tableName: 'service_resource',
  properties: {
    serviceId: p.manyToOne(Service).mapToPk().primary().deleteRule('cascade').updateRule('no action').deferMode('deferred'),
    resourceId: p.manyToOne(Resource).mapToPk().primary().deleteRule('cascade').updateRule('no action').deferMode('deferred'),
  },
});
export type ServiceResource = InstanceType<typeof ServiceResource.class>;
