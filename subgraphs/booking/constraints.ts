import type { ConstraintTable } from '../kernel/constraints.ts';

/** What booking's constraints mean to a client. */
export const bookingConstraints: ConstraintTable = {
  // The exclusion constraints: a staff member or a resource booked twice at overlapping times.
  booking_staff_no_overlap: { code: 'SLOT_TAKEN', message: 'This time was just taken; fetch the available slots again' },
  booking_resource_no_overlap: { code: 'SLOT_TAKEN', message: 'This time was just taken; fetch the available slots again' },
  service_category_name_uniq: { code: 'CONFLICT', field: 'name', message: 'A service category with this name exists' },
  // Two concurrent replacements of one day's hours: the later one retries as a client would.
  availability_rule_weekday_uniq: { code: 'CONFLICT', field: 'dayOfWeek', message: 'These hours were changed at the same time; try again' },
  availability_rule_date_uniq: { code: 'CONFLICT', field: 'date', message: 'These hours were changed at the same time; try again' },
};
