import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { isUuid } from '../kernel/ids.ts';
import { Booking, BookingEvent } from './entities/booking.ts';
import { Service, ServiceCategory, ServiceResource, ServiceStaff } from './entities/catalog.ts';
import { AvailabilityRule, Resource, StaffMember } from './entities/staff.ts';
import { bookingConstraints } from './constraints.ts';
import { booking0001 } from './migrations/0001_booking.ts';
import { booking0002 } from './migrations/0002_availability_unique.ts';
import { BookingResolver } from './resolvers/booking.resolver.ts';
import { CustomerBookingsResolver } from './resolvers/customer.resolver.ts';
import { ServiceResolver } from './resolvers/service.resolver.ts';
import { StaffResolver } from './resolvers/staff.resolver.ts';
import { CustomerRef } from './resolvers/types.ts';

/** Services, staff, resources, availability, slots and bookings. */
export const booking: SubgraphModule = {
  name: 'booking',
  schema: 'booking',
  entities: [ServiceCategory, Service, ServiceStaff, ServiceResource, StaffMember, Resource, AvailabilityRule, Booking, BookingEvent],
  migrations: [booking0001, booking0002],
  constraints: bookingConstraints,
  buildSchema: () =>
    buildFederatedSchema({
      resolvers: [ServiceResolver, StaffResolver, BookingResolver, CustomerBookingsResolver],
      orphanedTypes: [CustomerRef],
      references: {
        Customer: (ref: { id: string }) => ({ id: ref.id }),
        Booking: (ref: { id: string }, ctx) => (ctx.principal.kind === 'merchant' && isUuid(ref.id) ? ctx.em.findOne(Booking, { id: ref.id }) : null),
      },
    }),
};
