import type { Table } from '../kernel/tables.ts';
import type { AvailabilityRule } from './entities/availability-rule.ts';
import type { Booking, BookingEvent } from './entities/booking.ts';
import type { Resource } from './entities/resource.ts';
import type { ServiceCategory } from './entities/service-category.ts';
import type { Service, ServiceResource, ServiceStaff } from './entities/service.ts';
import type { StaffMember } from './entities/staff-member.ts';

/** The booking subgraph's tables, for `ctx.query` (kernel/tables.ts). */
declare module '../kernel/tables.ts' {
  interface Tables {
    'booking.availability_rule': Table<typeof AvailabilityRule>;
    'booking.booking': Table<typeof Booking>;
    'booking.booking_event': Table<typeof BookingEvent>;
    'booking.resource': Table<typeof Resource>;
    'booking.service_category': Table<typeof ServiceCategory>;
    'booking.service': Table<typeof Service>;
    'booking.service_staff': Table<typeof ServiceStaff>;
    'booking.service_resource': Table<typeof ServiceResource>;
    'booking.staff_member': Table<typeof StaffMember>;
  }
}
