import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantFilter } from '../../kernel/tenancy.ts';

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
