import { Ctx, Directive, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../kernel/context.ts';
import { customerBookings } from '../services/booking-lists.ts';
import { BookingNode } from './booking.types.ts';
import { CustomerRef } from './customer.types.ts';

/** members' Customer gains its bookings here; the router joins the two subgraphs. */
@Resolver(() => CustomerRef)
export class CustomerBookingsResolver {
  // Cost analysis (router/limits.ts): every booking of the customer, not a page; assume a page's worth.
  @Directive('@listSize(assumedSize: 20)')
  @FieldResolver(() => [BookingNode], { description: "The customer's bookings, soonest first (merchants, or the customer themself)." })
  async bookings(@Ctx() ctx: RequestContext, @Root() customer: CustomerRef) {
    return customerBookings(ctx, customer.id);
  }
}
