import { Ctx, Directive, FieldResolver, Resolver, Root } from 'type-graphql';
import { perKey } from '../../kernel/batches.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { forbidden } from '../../kernel/errors.ts';
import { anyOf } from '../../kernel/query.ts';
import { BookingNode } from './booking.types.ts';
import { CustomerRef } from './customer.types.ts';

/** members' Customer gains its bookings here; the router joins the two subgraphs. */
@Resolver(() => CustomerRef)
export class CustomerBookingsResolver {
  // Cost analysis (router/limits.ts): every booking of the customer, not a page; assume a page's worth.
  @Directive('@listSize(assumedSize: 20)')
  @FieldResolver(() => [BookingNode], { description: "The customer's bookings, soonest first (merchants, or the customer themself)." })
  async bookings(@Ctx() ctx: RequestContext, @Root() customer: CustomerRef) {
    const p = ctx.principal;
    if (p.kind !== 'merchant' && !(p.kind === 'customer' && p.customerId === customer.id)) throw forbidden("Only the merchant or the customer may see a customer's bookings");
    const rows = await ctx.loader('booking.byCustomer', async (ids: readonly string[]) => {
      const all = await ctx.all(ctx.query.selectFrom('booking.booking').selectAll().where('customerId', '=', anyOf(ids)).orderBy('startsAt').orderBy('id'));
      return perKey(ids, all, (b) => b.customerId);
    }).load(customer.id);
    return rows;
  }
}
