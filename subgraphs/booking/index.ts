import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { AvailabilityRule } from './entities/availability-rule.ts';
import { Booking, BookingEvent } from './entities/booking.ts';
import { Resource } from './entities/resource.ts';
import { Service, ServiceResource, ServiceStaff } from './entities/service.ts';
import { ServiceCategory } from './entities/service-category.ts';
import { StaffMember } from './entities/staff-member.ts';
import { bookingConstraints } from './constraints.ts';
import { booking0001 } from './migrations/0001_booking.ts';
import { booking0002 } from './migrations/0002_availability_unique.ts';
import { booking0003 } from './migrations/0003_promotions.ts';
import { bookingReferences } from './references.ts';
// Resolvers register their root fields as their modules load: this order is the order of the
// Query and Mutation fields in the printed SDL (schema/booking.graphql).
import { SlotResolver } from './resolvers/slot.resolver.ts';
import { BookingResolver } from './resolvers/booking.resolver.ts';
import { CustomerBookingsResolver } from './resolvers/customer.resolver.ts';
import { ServiceResolver } from './resolvers/service.resolver.ts';
import { ServiceCategoryResolver } from './resolvers/service-category.resolver.ts';
import { StaffMemberResolver } from './resolvers/staff-member.resolver.ts';
import { ResourceResolver } from './resolvers/resource.resolver.ts';
import { CustomerRef } from './resolvers/customer.types.ts';
import { bookingSubscriptions } from './subscriptions.ts';

/** Services, staff, resources, availability, slots and bookings. */
export const booking: SubgraphModule = {
  name: 'booking',
  schema: 'booking',
  entities: [ServiceCategory, Service, ServiceStaff, ServiceResource, StaffMember, Resource, AvailabilityRule, Booking, BookingEvent],
  migrations: [booking0001, booking0002, booking0003],
  constraints: bookingConstraints,
  buildSchema: () =>
    buildFederatedSchema({
      name: 'booking',
      resolvers: [SlotResolver, BookingResolver, CustomerBookingsResolver, ServiceResolver, ServiceCategoryResolver, StaffMemberResolver, ResourceResolver],
      orphanedTypes: [CustomerRef],
      references: bookingReferences,
    }),
  subscriptions: bookingSubscriptions,
};
