/** Bookings read as lists: the merchant's and the customer's pages, a customer's bookings, a booking's history. */
import { perKey } from '../../kernel/batches.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { forbidden } from '../../kernel/errors.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { addDays, zonedInstantAfter } from '../../kernel/time.ts';
import type { BookingStatus } from '../entities/booking.ts';
import { customerScope, type BookingRow } from './bookings.ts';

/** Which bookings: by state, and by day (YYYY-MM-DD in the company time zone). */
export interface BookingFilter {
  status?: BookingStatus | null;
  date?: string | null;
  page?: number | null;
  limit?: number | null;
  search?: string | null;
}

/** A page of bookings, soonest first: all of them for the merchant, or the signed-in customer's. */
export async function listBookings(ctx: RequestContext, args: BookingFilter, asCustomer: boolean) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('booking.booking').selectAll().orderBy('startsAt').orderBy('id');
  if (asCustomer) select = select.where(customerScope(ctx));
  if (args.status) select = select.where('status', '=', args.status);
  if (args.date) {
    const { timeZone } = await tenantSettings(ctx);
    select = select
      .where('startsAt', '>=', zonedInstantAfter(args.date, 0, timeZone))
      .where('startsAt', '<', zonedInstantAfter(addDays(args.date, 1), 0, timeZone));
  }
  if (req.search) select = select.where('customerName', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}

/**
 * Every booking of a customer, soonest first, for the merchant or the customer themself; the
 * customers of one list are read together.
 */
export async function customerBookings(ctx: RequestContext, customerId: string): Promise<BookingRow[]> {
  const p = ctx.principal;
  if (p.kind !== 'merchant' && !(p.kind === 'customer' && p.customerId === customerId))
    throw forbidden("Only the merchant or the customer may see a customer's bookings");
  return ctx
    .loader('booking.byCustomer', async (ids: readonly string[]) => {
      const all = await ctx.all(ctx.query.selectFrom('booking.booking').selectAll().where('customerId', '=', anyOf(ids)).orderBy('startsAt').orderBy('id'));
      return perKey(ids, all, (b) => b.customerId);
    })
    .load(customerId);
}

/** A booking's history, oldest first; the bookings of one list are read together. */
export const bookingHistory = (ctx: RequestContext, bookingId: string): Promise<RowOf<'booking.booking_event'>[]> =>
  ctx.loader('booking.events', (ids: readonly string[]) => bookingEvents(ctx, ids)).load(bookingId);

async function bookingEvents(ctx: RequestContext, bookingIds: readonly string[]) {
  const rows = await ctx.all(
    ctx.query.selectFrom('booking.booking_event').selectAll().where('bookingId', '=', anyOf(bookingIds)).orderBy('createdAt').orderBy('id'),
  );
  return perKey(bookingIds, rows, (r) => r.bookingId);
}
