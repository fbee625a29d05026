import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/**
 * Working hours of a staff member or a resource: weekly (dayOfWeek 0 = Sunday … 6) or for one
 * date, which then replaces the weekly hours; a date without times is a day off.
 */
export const AvailabilityRule = tenantEntity({
  name: 'AvailabilityRule',
  schema: 'booking',
  tableName: 'availability_rule',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    ownerType: p.text().$type<'staff' | 'resource'>(),
    ownerId: p.uuid(),
    dayOfWeek: p.integer().nullable(),
    date: p.text().columnType('date').nullable(),
    /** Minutes after local midnight; both null for a day off. */
    startMinute: p.integer().nullable(),
    endMinute: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  indexes: [{ name: 'availability_rule_owner_idx', properties: ['companyId', 'ownerId'] }],
  uniques: [
    // One rule per owner and weekday, and per owner and date (migration 0002).
    { name: 'availability_rule_weekday_uniq', properties: ['ownerId', 'dayOfWeek'], where: 'date is null' },
    { name: 'availability_rule_date_uniq', properties: ['ownerId', 'date'], where: 'date is not null' },
  ],
  checks: [
    { name: 'availability_rule_owner_type_check', expression: "owner_type in ('staff', 'resource')" },
    { name: 'availability_rule_day_of_week_check', expression: 'day_of_week >= 0 and day_of_week <= 6' },
    { name: 'availability_rule_start_minute_check', expression: 'start_minute >= 0 and start_minute <= 1440' },
    { name: 'availability_rule_end_minute_check', expression: 'end_minute >= 0 and end_minute <= 1440' },
    { name: 'availability_rule_check', expression: '(day_of_week is null) <> (date is null)' },
    { name: 'availability_rule_check1', expression: '(start_minute is null) = (end_minute is null)' },
    { name: 'availability_rule_check2', expression: 'start_minute is null or start_minute < end_minute' },
  ],
});
export type AvailabilityRule = InstanceType<typeof AvailabilityRule.class>;
