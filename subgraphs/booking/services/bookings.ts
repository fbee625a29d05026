/**
 * Bookings: made for a slot (by the customer, a guest or the business), cancelled or moved within
 * their service's policy, and marked COMPLETED or NO_SHOW once started. Lists: booking-lists.ts.
 */
import { LockMode } from '@mikro-orm/core';
import type { ExpressionBuilder } from 'kysely';
import type { RequestContext } from '../../kernel/context.ts';
import { AppError, badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { amount, percentOf, toMoney } from '../../kernel/money.ts';
import { enqueueMessage } from '../../kernel/outbox/index.ts';
import type { RowOf, Tables } from '../../kernel/tables.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { wallClock } from '../../kernel/time.ts';
import { Booking, BookingEvent, type BookingStatus } from '../entities/booking.ts';
import { releaseBookingPromotion, takeBookingPromotion } from './promotions.ts';
import { getService, type ServiceRow } from './services.ts';
import { computeSlots, occurrenceKey, type Slot } from './slots.ts';
import { bookingStates } from './states.ts';

type Actor = 'customer' | 'guest' | 'merchant';
/** Who acts on a booking once made: the business on any, the signed-in customer on theirs. */
type Caller = Exclude<Actor, 'guest'>;

export type BookingRow = RowOf<'booking.booking'>;

/**
 * A booking to make, as the edge checked it (resolvers/booking.inputs.ts). Errors name these
 * fields (`start`, `participants`…); a resolver puts them in its caller's words with `inCallerWords`.
 */
export interface BookingRequest {
  serviceId: string;
  start: Date;
  /** When the client states the end, it must match the service's duration. */
  end?: Date | null;
  /** At least 1 (default 1); at most the service's capacity. */
  participants?: number | null;
  customerName: string;
  /** Lower-cased. */
  customerEmail?: string | null;
  /** E.164-like: a leading + and 7 to 15 digits. */
  customerPhone?: string | null;
  /** Any id: one the service does not use is refused naming the field. */
  staffId?: string | null;
  resourceId?: string | null;
  /** A promotion code (booking channel), upper-cased. */
  promotionCode?: string | null;
}

/** A move of a booking to another time (as the edge checked it); errors name these fields. */
export interface RescheduleRequest {
  start: Date;
  end?: Date | null;
  staffId?: string | null;
  resourceId?: string | null;
}

const slotTaken = (message = 'This time was just taken; fetch the available slots again') => new AppError('SLOT_TAKEN', message);

/**
 * Finds the offered slot for a start time, or explains why there is none: a time the service
 * never offers is bad input; one it offers but that is full or taken is SLOT_TAKEN.
 */
async function offeredSlot(
  ctx: RequestContext,
  service: ServiceRow,
  start: Date,
  options: { staffId?: string | null; resourceId?: string | null; ignoreBookingId?: string },
): Promise<Slot> {
  const { timeZone } = await tenantSettings(ctx);
  const date = wallClock(start, timeZone).date;
  const at = (slots: Slot[]) => slots.find((s) => s.start.getTime() === start.getTime());
  const slot = at(await computeSlots(ctx, service, date, date, options));
  if (slot) return slot;
  if (at(await computeSlots(ctx, service, date, date, { ...options, ignoreBookings: true }))) throw slotTaken();
  throw badInput('start', 'is not an available time for this service; use the available slots');
}

/**
 * Picks who takes a booking at a slot: the wanted staff member and resource when given (a service
 * that needs neither ignores them), else the first offer with enough places left.
 */
function pickOffer(slot: Slot, service: ServiceRow, participants: number, wanted: { staffId?: string | null; resourceId?: string | null }) {
  const offer = slot.offers.find(
    (o) =>
      o.remaining >= participants &&
      (!service.requiresStaff || !wanted.staffId || o.staff?.id === wanted.staffId) &&
      (!service.requiresResource || !wanted.resourceId || o.resources[0]?.id === wanted.resourceId),
  );
  if (!offer) {
    const left = Math.max(0, ...slot.offers.map((o) => o.remaining));
    throw slotTaken(
      left < participants && left > 0 ? `Only ${left} place(s) left at this time` : 'The chosen staff member or resource is not free at this time',
    );
  }
  return { staffId: offer.staff?.id ?? null, resourceId: offer.resources[0]?.id ?? null };
}

export async function createBooking(ctx: RequestContext, req: BookingRequest, actor: Actor) {
  const service = await getService(ctx, req.serviceId, { activeOnly: true });
  const participants = req.participants ?? 1;
  if (participants > service.capacity) throw badInput('participants', `must not exceed the service capacity of ${service.capacity}`);
  if (req.end && req.end.getTime() !== req.start.getTime() + service.durationMinutes * 60000) {
    throw badInput('end', `must be ${service.durationMinutes} minutes after the start`);
  }
  const promotionCode = req.promotionCode ?? null;
  const email = req.customerEmail ?? null;
  const phone = req.customerPhone ?? null;

  const slot = await offeredSlot(ctx, service, req.start, { staffId: req.staffId, resourceId: req.resourceId });
  const { staffId, resourceId } = pickOffer(slot, service, participants, req);
  const key = occurrenceKey(service.id, slot.start, staffId, resourceId);
  const principal = ctx.principal;
  const customerId = principal.kind === 'customer' ? principal.customerId : null;

  const booking = await ctx.transaction(async (tx) => {
    await lockSeats(tx, service, key, participants, null);
    const bookingId = newId();
    // The code's use is taken in this transaction: a refusal books nothing.
    const discountMinor = promotionCode
      ? await takeBookingPromotion(tx, {
          code: promotionCode,
          amountMinor: service.priceMinor * participants,
          customerKey: customerId ?? email ?? phone,
          bookingId,
        })
      : 0;
    const row = tx.em.create(Booking, {
      id: bookingId,
      serviceId: service.id,
      staffId,
      resourceId,
      customerId,
      customerName: req.customerName,
      customerEmail: email,
      customerPhone: phone,
      participants,
      occurrenceKey: key,
      startsAt: slot.start,
      endsAt: slot.end,
      blockStart: new Date(slot.start.getTime() - service.bufferBeforeMinutes * 60000),
      blockEnd: new Date(slot.end.getTime() + service.bufferAfterMinutes * 60000),
      status: 'CONFIRMED',
      priceMinor: service.priceMinor,
      currency: service.currency,
      promotionCode,
      discountMinor,
      source: actor,
    });
    tx.em.create(BookingEvent, { id: newId(), bookingId: row.id, type: 'CREATED', toStart: slot.start, actor });
    tx.publish('booking.created', {
      bookingId: row.id,
      serviceId: service.id,
      customerId,
      startsAt: slot.start.toISOString(),
      createdAt: tx.now().toISOString(),
    });
    await notify(tx, row, service, 'confirmed');
    return row;
  });
  return booking;
}

/**
 * Seats are counted under a lock on the service row, so concurrent bookings of one occurrence
 * take turns and never sell more than the capacity.
 */
async function lockSeats(tx: RequestContext, service: ServiceRow, key: string, participants: number, exceptBookingId: string | null) {
  await tx.query.selectFrom('booking.service').select('id').where('id', '=', service.id).forUpdate().execute();
  const row = await tx.first(
    tx.query
      .selectFrom('booking.booking')
      .select((e) => e.fn.coalesce(e.fn.sum<string | number>('participants'), e.lit(0)).as('taken'))
      .where('occurrenceKey', '=', key)
      .where('status', '=', 'CONFIRMED')
      .where('id', 'is distinct from', exceptBookingId),
  );
  if (Number(row?.taken ?? 0) + participants > service.capacity) throw slotTaken();
}

/** Bookings a customer may see: their own, and guest bookings made with their verified email or phone. */
export function customerScope(ctx: RequestContext) {
  const p = ctx.customer;
  return (e: ExpressionBuilder<Pick<Tables, 'booking.booking'>, 'booking.booking'>) =>
    e.or([
      e('customerId', '=', p.customerId),
      ...(p.verifiedEmail ? [e('customerEmail', '=', p.verifiedEmail)] : []),
      ...(p.verifiedPhone ? [e('customerPhone', '=', p.verifiedPhone)] : []),
    ]);
}

/** A booking to read or act on (a plain row: a change re-reads it locked in its transaction). */
export async function findBooking(ctx: RequestContext, bookingId: string, asCustomer: boolean): Promise<BookingRow> {
  let select = ctx.query.selectFrom('booking.booking').selectAll().where('id', '=', bookingId);
  if (asCustomer) select = select.where(customerScope(ctx));
  const booking = await ctx.first(select);
  if (!booking) throw notFound('Booking');
  return booking;
}

/** A cancel or a move must happen before the policy's cut-off; the policy travels with the refusal. */
function enforcePolicy(ctx: RequestContext, service: ServiceRow, booking: BookingRow | Booking, action: 'cancel' | 'reschedule') {
  const policy = service.cancellationPolicy;
  const cutoff = booking.startsAt.getTime() - policy.hoursBefore * 3600000;
  if (ctx.now().getTime() > cutoff) {
    throw new AppError(
      'CANCELLATION_NOT_ALLOWED',
      `This booking can no longer be ${action === 'cancel' ? 'cancelled' : 'rescheduled'}: ${policy.description ?? ''}`.trim(),
      {
        cancellationPolicy: policy,
        cutoff: new Date(cutoff).toISOString(),
      },
    );
  }
}

/** Cancels a booking within its policy; `reason` (at most 500 characters) goes into its history. */
export async function cancelBooking(ctx: RequestContext, bookingId: string, reason: string | null, actor: Caller) {
  const booking = await findBooking(ctx, bookingId, actor === 'customer');
  const service = await getService(ctx, booking.serviceId);
  return ctx.transaction(async (tx) => {
    const row = await lockBooking(tx, booking.id, 'CANCELLED');
    enforcePolicy(tx, service, row, 'cancel');
    Object.assign(row, { status: 'CANCELLED', cancelledAt: tx.now(), cancellationReason: reason, refundPercent: service.cancellationPolicy.refundPercent });
    await releaseBookingPromotion(tx, row.id);
    tx.em.create(BookingEvent, { id: newId(), bookingId: row.id, type: 'CANCELLED', fromStart: row.startsAt, note: reason, actor });
    await notify(tx, row, service, 'cancelled');
    return row;
  });
}

/** The booking row, locked for this transaction, whose state may move to `to`; else INVALID_STATE_TRANSITION. */
async function lockBooking(tx: RequestContext, id: string, to: BookingStatus): Promise<Booking> {
  const row = await tx.em.findOne(Booking, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  if (!row) throw notFound('Booking');
  bookingStates.assert(row.status, to);
  return row;
}

export async function rescheduleBooking(ctx: RequestContext, bookingId: string, req: RescheduleRequest, actor: Caller) {
  const booking = await findBooking(ctx, bookingId, actor === 'customer');
  // A reschedule keeps the booking CONFIRMED: only a confirmed booking moves.
  bookingStates.assert(booking.status, 'CONFIRMED');
  const service = await getService(ctx, booking.serviceId);
  enforcePolicy(ctx, service, booking, 'reschedule');
  if (req.end && req.end.getTime() !== req.start.getTime() + service.durationMinutes * 60000) {
    throw badInput('end', `must be ${service.durationMinutes} minutes after the start`);
  }
  if (req.start.getTime() === booking.startsAt.getTime() && !req.staffId && !req.resourceId) throw badInput('start', 'is the current time of the booking');
  const slot = await offeredSlot(ctx, service, req.start, { staffId: req.staffId, resourceId: req.resourceId, ignoreBookingId: booking.id });
  // Keep the same staff member and resource when they are free at the new time.
  const keep = (id: string | null | undefined) => (id && slot.offers.some((o) => o.staff?.id === id || o.resources.some((r) => r.id === id)) ? id : null);
  const { staffId, resourceId } = pickOffer(slot, service, booking.participants, {
    staffId: req.staffId ?? keep(booking.staffId),
    resourceId: req.resourceId ?? keep(booking.resourceId),
  });
  return ctx.transaction(async (tx) => {
    const key = occurrenceKey(service.id, slot.start, staffId, resourceId);
    await lockSeats(tx, service, key, booking.participants, booking.id);
    // Checked again on the locked row: a concurrent cancel or move wins, this one answers 409.
    const row = await lockBooking(tx, booking.id, 'CONFIRMED');
    if (row.startsAt.getTime() !== booking.startsAt.getTime()) throw new AppError('CONFLICT', 'The booking was changed meanwhile; read it again');
    enforcePolicy(tx, service, row, 'reschedule');
    const from = row.startsAt;
    Object.assign(row, {
      startsAt: slot.start,
      endsAt: slot.end,
      blockStart: new Date(slot.start.getTime() - service.bufferBeforeMinutes * 60000),
      blockEnd: new Date(slot.end.getTime() + service.bufferAfterMinutes * 60000),
      occurrenceKey: key,
      staffId,
      resourceId,
    });
    tx.em.create(BookingEvent, { id: newId(), bookingId: row.id, type: 'RESCHEDULED', fromStart: from, toStart: slot.start, actor });
    await notify(tx, row, service, 'rescheduled', from);
    return row;
  });
}

/** The merchant's record of how a booking went (see markOutcome). */
export async function recordOutcome(ctx: RequestContext, bookingId: string, outcome: BookingStatus) {
  return markOutcome(ctx, await findBooking(ctx, bookingId, false), outcome);
}

/** After the start, a merchant records how it went: COMPLETED or NO_SHOW (from CONFIRMED only). */
export async function markOutcome(ctx: RequestContext, booking: BookingRow, outcome: BookingStatus) {
  // A cancellation is its own operation (with its policy and refund), not an outcome.
  if (outcome !== 'COMPLETED' && outcome !== 'NO_SHOW') throw badInput('status', 'must be COMPLETED or NO_SHOW');
  bookingStates.assert(booking.status, outcome);
  if (booking.startsAt.getTime() > ctx.now().getTime()) throw badInput('status', 'can be recorded once the booking has started');
  return ctx.transaction(async (tx) => {
    const row = await lockBooking(tx, booking.id, outcome);
    row.status = outcome;
    tx.em.create(BookingEvent, { id: newId(), bookingId: row.id, type: 'STATUS_CHANGED', note: outcome, actor: 'merchant' });
    if (outcome === 'COMPLETED') {
      const service = await getService(tx, row.serviceId);
      tx.publish('booking.completed', {
        bookingId: row.id,
        serviceId: row.serviceId,
        serviceName: service.name,
        customerId: row.customerId ?? null,
        amountDueMinor: amountDue(row),
        currency: row.currency,
        startsAt: row.startsAt.toISOString(),
      });
    }
    return row;
  });
}

/** What the booking costs after its promotion's discount. */
export const amountDue = (booking: Pick<BookingRow, 'priceMinor' | 'participants' | 'discountMinor'>) =>
  booking.priceMinor * booking.participants - booking.discountMinor;

export function refundOf(booking: BookingRow) {
  if (booking.status !== 'CANCELLED' || booking.refundPercent == null) return null;
  const total = amountDue(booking);
  return {
    eligible: booking.refundPercent > 0 && total > 0,
    percent: booking.refundPercent,
    amount: toMoney(percentOf(amount(total, booking.currency), booking.refundPercent).minor, booking.currency),
  };
}

/** Confirmation, cancellation and reschedule messages, written to the outbox in the booking's transaction. */
async function notify(tx: RequestContext, booking: BookingRow | Booking, service: ServiceRow, what: 'confirmed' | 'cancelled' | 'rescheduled', from?: Date) {
  const to = booking.customerEmail ?? booking.customerPhone;
  if (!to) return;
  const { name: companyName, timeZone } = await tenantSettings(tx);
  const format = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full', timeStyle: 'short' });
  const when = (d: Date) => format.format(d);
  const lines = {
    confirmed: `Your booking of ${service.name} on ${when(booking.startsAt)} is confirmed.`,
    cancelled: `Your booking of ${service.name} on ${when(booking.startsAt)} is cancelled.`,
    rescheduled: `Your booking of ${service.name} moved from ${from ? when(from) : ''} to ${when(booking.startsAt)}.`,
  };
  enqueueMessage(tx, {
    companyId: tx.companyId,
    channel: booking.customerEmail ? 'email' : 'sms',
    to,
    subject: `${companyName}: booking ${what}`,
    body: `${lines[what]} Reference: ${booking.id}.`,
  });
}
