import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

export const StaffMember = defineEntity({
  name: 'StaffMember',
  schema: 'booking',
  tableName: 'staff_member',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    title: p.string().nullable(),
    active: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type StaffMember = InstanceType<typeof StaffMember.class>;

export const Resource = defineEntity({
  name: 'Resource',
  schema: 'booking',
  tableName: 'resource',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    name: p.string(),
    type: p.string(),
    active: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type Resource = InstanceType<typeof Resource.class>;

/**
 * Working hours of a staff member or a resource: weekly (dayOfWeek 0 = Sunday … 6) or for one
 * date, which then replaces the weekly hours; a date without times is a day off.
 */
export const AvailabilityRule = defineEntity({
  name: 'AvailabilityRule',
  schema: 'booking',
  tableName: 'availability_rule',
  properties: {
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid(),
    ownerType: p.string().$type<'staff' | 'resource'>(),
    ownerId: p.uuid(),
    dayOfWeek: p.integer().nullable(),
    date: p.string().columnType('date').nullable(),
    /** Minutes after local midnight; both null for a day off. */
    startMinute: p.integer().nullable(),
    endMinute: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  filters: tenantFilter,
});
export type AvailabilityRule = InstanceType<typeof AvailabilityRule.class>;
