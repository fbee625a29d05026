import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { DateTime } from '../../kernel/scalars.ts';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { inCallerWords } from '../../kernel/errors.ts';
import { toMoney, Money } from '../../kernel/money.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import type { BookingStatus } from '../entities/booking.ts';
import { bookingHistory, listBookings } from '../services/booking-lists.ts';
import * as bookings from '../services/bookings.ts';
import { findResource } from '../services/resources.ts';
import { findService } from '../services/services.ts';
import { findStaffMember } from '../services/staff-members.ts';
import { BookingDay, BookingId, BookingMove, CancelReason, GuestBooking, MyBookingMove, NewBooking } from './booking.inputs.ts';
import {
  BookingEventNode,
  BookingNode,
  BookingOutcomeEnum,
  BookingPage,
  BookingStatusEnum,
  CancelInput,
  CreateBookingInput,
  GuestBookingInput,
  RefundNode,
  RescheduleInput,
  type BookingOutcome,
} from './booking.types.ts';
import { CustomerRef } from './customer.types.ts';
import { ResourceNode, resourceNode } from './resource.types.ts';
import { ServiceNode, serviceNode } from './service.types.ts';
import { StaffMemberNode, staffNode } from './staff-member.types.ts';

/**
 * The booking service names its inputs its own way (`start`, `end`); each caller below knows them
 * by the names of its own contract, and errors say those.
 */
const AGENT = { start: 'slotTime' };
const PORTAL = { start: 'occurrenceStart', end: 'occurrenceEnd' };

/** Bookings and their lifecycle, for merchants and for signed-in or guest customers. */
@Resolver(() => BookingNode)
export class BookingResolver {
  @Requires('merchant', 'booking')
  @Query(() => BookingPage, { description: 'Bookings, by status and day.' })
  async bookings(
    @Ctx() ctx: RequestContext,
    @Args(() => ListArgs) args: ListArgs,
    @Arg('status', () => BookingStatusEnum, { nullable: true, description: 'Only bookings in this state.' }) status?: BookingStatus,
    @Arg('date', () => String, { nullable: true, description: 'YYYY-MM-DD in the company time zone' }) date?: string,
  ) {
    return listBookings(ctx, { ...args, status, date: parse(BookingDay, date, 'date') }, false);
  }

  @Requires('merchant', 'booking')
  @Query(() => BookingNode)
  async booking(@Ctx() ctx: RequestContext, @Arg('bookingId', () => ID, { description: "The booking's id." }) bookingId: string) {
    return bookings.findBooking(ctx, parse(BookingId, bookingId, 'bookingId'), false);
  }

  @Requires('customer', 'booking')
  @Query(() => BookingPage, { description: "The signed-in customer's bookings, including guest bookings made with their verified email or phone." })
  async myBookings(
    @Ctx() ctx: RequestContext,
    @Args(() => ListArgs) args: ListArgs,
    @Arg('status', () => BookingStatusEnum, { nullable: true, description: 'Only bookings in this state.' }) status?: BookingStatus,
  ) {
    return listBookings(ctx, { ...args, status }, true);
  }

  @Requires('customer', 'booking')
  @Query(() => BookingNode)
  async myBooking(@Ctx() ctx: RequestContext, @Arg('id', () => ID, { description: "The booking's id." }) id: string) {
    return bookings.findBooking(ctx, parse(BookingId, id, 'id'), true);
  }

  @Requires('merchant', 'booking')
  @Mutation(() => BookingNode, { description: 'Books a slot for a customer; SLOT_TAKEN (409) when it was taken meanwhile.' })
  async createBooking(@Ctx() ctx: RequestContext, @Arg('input', () => CreateBookingInput, { description: 'The booking to make.' }) input: CreateBookingInput) {
    return inCallerWords(bookings.createBooking(ctx, parse(NewBooking, input), 'merchant'), AGENT);
  }

  @Requires('optionalCustomer', 'booking')
  @Mutation(() => BookingNode, { description: 'Books a slot without signing in (linked to the customer when a token is given).' })
  async createGuestBooking(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => GuestBookingInput, { description: 'The booking to make and who makes it.' }) input: GuestBookingInput,
  ) {
    const actor = ctx.principal.kind === 'customer' ? 'customer' : 'guest';
    return inCallerWords(bookings.createBooking(ctx, parse(GuestBooking, input), actor), PORTAL);
  }

  @Requires('merchant', 'booking')
  @Mutation(() => BookingNode, { description: 'Cancels a booking if its cancellation policy allows; reports refund eligibility.' })
  async cancelBooking(
    @Ctx() ctx: RequestContext,
    @Arg('bookingId', () => ID, { description: "The booking's id." }) bookingId: string,
    @Arg('reason', () => String, { nullable: true, description: "Why it is cancelled (kept in the booking's history)." }) reason?: string,
  ) {
    return bookings.cancelBooking(ctx, parse(BookingId, bookingId, 'bookingId'), parse(CancelReason, reason, 'reason'), 'merchant');
  }

  @Requires('merchant', 'booking')
  @Mutation(() => BookingNode, { description: 'Moves a booking to another available slot; its history keeps the old time.' })
  async rescheduleBooking(
    @Ctx() ctx: RequestContext,
    @Arg('bookingId', () => ID, { description: "The booking's id." }) bookingId: string,
    @Arg('slotTime', () => DateTime, { description: "The new start, one of get_available_slots' times (ISO-8601 with offset)." }) slotTime: Date,
    @Arg('staffId', () => ID, { nullable: true, description: 'Another staff member for the new time (default: keep or pick one free).' }) staffId?: string,
    @Arg('resourceId', () => ID, { nullable: true, description: 'Another resource for the new time (default: keep or pick one free).' }) resourceId?: string,
  ) {
    return inCallerWords(
      bookings.rescheduleBooking(ctx, parse(BookingId, bookingId, 'bookingId'), parse(BookingMove, { slotTime, staffId, resourceId }), 'merchant'),
      AGENT,
    );
  }

  @Requires('merchant', 'booking')
  @Mutation(() => BookingNode, { description: 'Records how a started booking went: COMPLETED or NO_SHOW.' })
  async updateBookingStatus(
    @Ctx() ctx: RequestContext,
    @Arg('bookingId', () => ID, { description: "The booking's id." }) bookingId: string,
    @Arg('status', () => BookingOutcomeEnum, { description: 'The outcome to record.' }) status: BookingOutcome,
  ) {
    return bookings.recordOutcome(ctx, parse(BookingId, bookingId, 'bookingId'), status);
  }

  @Requires('customer', 'booking')
  @Mutation(() => BookingNode, { description: "Cancels the signed-in customer's booking, within the cancellation policy." })
  async cancelMyBooking(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID, { description: "The booking's id." }) id: string,
    @Arg('input', () => CancelInput, { nullable: true, description: 'Why it is cancelled (optional).' }) input?: CancelInput,
  ) {
    return bookings.cancelBooking(ctx, parse(BookingId, id, 'id'), parse(CancelReason, input?.reason, 'reason'), 'customer');
  }

  @Requires('customer', 'booking')
  @Mutation(() => BookingNode, { description: "Moves the signed-in customer's booking, within the cancellation policy." })
  async rescheduleMyBooking(
    @Ctx() ctx: RequestContext,
    @Arg('id', () => ID, { description: "The booking's id." }) id: string,
    @Arg('input', () => RescheduleInput, { description: 'The new time.' }) input: RescheduleInput,
  ) {
    return inCallerWords(bookings.rescheduleBooking(ctx, parse(BookingId, id, 'id'), parse(MyBookingMove, input), 'customer'), PORTAL);
  }

  @FieldResolver(() => ServiceNode)
  async service(@Ctx() ctx: RequestContext, @Root() booking: bookings.BookingRow) {
    return serviceNode((await findService(ctx, booking.serviceId))!);
  }

  @FieldResolver(() => StaffMemberNode, { nullable: true })
  async staff(@Ctx() ctx: RequestContext, @Root() booking: bookings.BookingRow) {
    const member = booking.staffId ? await findStaffMember(ctx, booking.staffId) : null;
    return member && staffNode(member);
  }

  @FieldResolver(() => ResourceNode, { nullable: true })
  async resource(@Ctx() ctx: RequestContext, @Root() booking: bookings.BookingRow) {
    const resource = booking.resourceId ? await findResource(ctx, booking.resourceId) : null;
    return resource && resourceNode(resource);
  }

  @FieldResolver(() => CustomerRef, { nullable: true, description: 'The signed-in customer who booked, when known (resolved by members).' })
  customer(@Root() booking: bookings.BookingRow) {
    return booking.customerId ? { id: booking.customerId } : null;
  }

  @FieldResolver(() => Money, { description: 'Price for all participants.' })
  price(@Root() booking: bookings.BookingRow) {
    return toMoney(booking.priceMinor * booking.participants, booking.currency);
  }

  @FieldResolver(() => Money, { description: 'What the promotion code took off the price (0 without one).' })
  discount(@Root() booking: bookings.BookingRow) {
    return toMoney(booking.discountMinor, booking.currency);
  }

  @FieldResolver(() => Money, { description: 'What the customer pays: the price less the discount.' })
  amountDue(@Root() booking: bookings.BookingRow) {
    return toMoney(bookings.amountDue(booking), booking.currency);
  }

  @FieldResolver(() => RefundNode, { nullable: true, description: 'For a cancelled booking: whether and how much of the amount due is refunded.' })
  refund(@Root() booking: bookings.BookingRow) {
    return bookings.refundOf(booking);
  }

  @FieldResolver(() => [BookingEventNode], { description: 'Created, rescheduled (from → to) and cancelled, oldest first.' })
  async history(@Ctx() ctx: RequestContext, @Root() booking: bookings.BookingRow) {
    return bookingHistory(ctx, booking.id);
  }
}
