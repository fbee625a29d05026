import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound, reasonError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { applyChanges } from '../../kernel/inputs.ts';
import { parseAmount } from '../../kernel/money.ts';
import { enqueueMessage } from '../../kernel/outbox/index.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import { chooseSlug } from '../../kernel/slugs.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { Event, EventRegistration, type EventState } from '../entities/event.ts';
import { flushWithSlug, type IdOrSlug } from './slugs.ts';
import { eventStates } from './states.ts';

/** An event's fields as the edge checked them (resolvers/event.inputs.ts); on a change, absent means unchanged. */
export interface EventChanges {
  title?: string | null;
  slug?: string | null;
  description?: string | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  venue?: string | null;
  /** Places in all; null for no limit. */
  capacity?: number | null;
  /** Per place, in major units of the company currency ("25.00"). */
  price?: string | null;
  status?: EventState | null;
}

/** A new event: a title and when it takes place. */
export interface EventFields extends EventChanges {
  title: string;
  startsAt: Date;
  endsAt: Date;
}

/** The given fields, then the rules across fields and the price in the event's currency. */
async function apply(ctx: RequestContext, event: Event, input: EventChanges, currency: string) {
  applyChanges(event, input, { set: ['title', 'startsAt', 'endsAt'], clearable: ['description', 'venue', 'capacity'] });
  if (input.slug != null)
    event.slug = await chooseSlug(ctx, 'content.event', { explicit: input.slug, text: event.title, fallback: 'untitled', exceptId: event.id });
  if (event.endsAt.getTime() <= event.startsAt.getTime()) throw badInput('endsAt', 'must be after startsAt');
  if (input.price != null) event.priceMinor = parseAmount('price', input.price, currency);
  if (input.status != null && input.status !== event.status) {
    eventStates.assert(event.status, input.status);
    event.status = input.status;
  }
}

export async function createEvent(ctx: RequestContext, input: EventFields) {
  const { title, startsAt, endsAt } = input;
  // Read before the transaction: the company's settings come from the kernel's cache or connection.
  const { currency } = await tenantSettings(ctx);
  return ctx.transaction(async (tx) => {
    const event = tx.em.create(Event, {
      id: newId(),
      title,
      slug: await chooseSlug(tx, 'content.event', { explicit: input.slug, text: title, fallback: 'untitled' }),
      startsAt,
      endsAt,
      priceMinor: 0,
      currency,
      capacity: null,
      status: 'draft',
    });
    await apply(tx, event, { ...input, slug: undefined }, currency);
    await flushWithSlug(tx, 'content.event', event, { explicit: input.slug, title });
    return event;
  });
}

export async function updateEvent(ctx: RequestContext, eventId: IdOrSlug, input: EventChanges) {
  return ctx.transaction(async (tx) => {
    const event = await tx.em.findOne(Event, eventId);
    if (!event) throw notFound('Event');
    await apply(tx, event, input, event.currency);
    return event;
  });
}

export type EventRow = RowOf<'content.event'>;

/** An event by id or slug; storefronts see published (and cancelled, to say so) events only. */
export async function getEvent(ctx: RequestContext, key: IdOrSlug, publicOnly: boolean): Promise<EventRow> {
  let select = ctx.query.selectFrom('content.event').selectAll();
  select = 'id' in key ? select.where('id', '=', key.id) : select.where('slug', '=', key.slug);
  if (publicOnly) select = select.where('status', '=', anyOf(['published', 'cancelled']));
  const event = await ctx.first(select);
  if (!event) throw notFound('Event');
  return event;
}

export async function listEvents(
  ctx: RequestContext,
  args: { search?: string | null; page?: number | null; limit?: number | null; status?: EventState | null },
  publicOnly: boolean,
) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('content.event').selectAll().orderBy('startsAt').orderBy('id');
  if (publicOnly) select = select.where('status', '=', 'published').where('endsAt', '>', ctx.now());
  else if (args.status) select = select.where('status', '=', args.status);
  const search = req.search && likePattern(req.search);
  if (search) select = select.where((e) => e.or([e('title', 'ilike', search), e('venue', 'ilike', search), e('description', 'ilike', search)]));
  return ctx.page(select, req);
}

/** Seats taken per event (confirmed and awaiting payment), for many events in one query. */
export async function seatsTaken(ctx: RequestContext, eventIds: readonly string[]): Promise<number[]> {
  if (!eventIds.length) return [];
  const rows = await ctx.all(
    ctx.query
      .selectFrom('content.event_registration')
      .select((e) => ['eventId', e.fn.sum<string | number>('quantity').as('taken')])
      .where('status', '<>', 'CANCELLED')
      .where('eventId', '=', anyOf(eventIds))
      .groupBy('eventId'),
  );
  return eventIds.map((id) => Number(rows.find((r) => r.eventId === id)?.taken ?? 0));
}

/** Whether the signed-in customer holds a registration, per event (null when nobody is signed in). */
export async function registeredFlags(ctx: RequestContext, eventIds: readonly string[]): Promise<(boolean | null)[]> {
  const p = ctx.principal;
  if (p.kind !== 'customer') return eventIds.map(() => null);
  const mine = await ctx.all(
    ctx.query
      .selectFrom('content.event_registration')
      .select('eventId')
      .where('eventId', '=', anyOf(eventIds))
      .where('status', '<>', 'CANCELLED')
      .where((e) =>
        e.or([
          e('customerId', '=', p.customerId),
          ...(p.verifiedEmail ? [e('email', '=', p.verifiedEmail)] : []),
          ...(p.verifiedPhone ? [e('phone', '=', p.verifiedPhone)] : []),
        ]),
      ),
  );
  return eventIds.map((id) => mine.some((r) => r.eventId === id));
}

/** Places left of an event (null for no limit), its seats counted with the other events of the request. */
export async function placesLeft(ctx: RequestContext, event: EventRow): Promise<number | null> {
  if (event.capacity == null) return null;
  const taken = await ctx.loader('content.seatsTaken', (ids: readonly string[]) => seatsTaken(ctx, ids)).load(event.id);
  return Math.max(0, event.capacity - taken);
}

/** Whether the signed-in customer is registered for an event, asked with the other events of the request. */
export function isRegistered(ctx: RequestContext, eventId: string): Promise<boolean | null> {
  return ctx.loader('content.registered', (ids: readonly string[]) => registeredFlags(ctx, ids)).load(eventId);
}

/** A registration as the edge checked it (resolvers/event.inputs.ts). */
export interface Registration {
  eventId: IdOrSlug;
  name: string;
  email?: string;
  phone?: string;
  /** Places, 1 to 50. */
  quantity: number;
}

/**
 * Registers attendees. Seats are counted under a lock on the event row, so concurrent
 * registrations never sell more than the capacity. Free events confirm at once; paid ones wait
 * for payment.
 */
export async function register(ctx: RequestContext, input: Registration) {
  const { id: eventId } = await getEvent(ctx, input.eventId, true);
  const { name, quantity } = input;
  const email = input.email ?? null;
  const phone = input.phone ?? null;
  const p = ctx.principal;
  // A signed-in customer's registration is theirs without an address; anyone else's needs one to be confirmed to.
  if (!email && !phone && p.kind !== 'customer') throw badInput('email', 'an email or a phone is needed to send the confirmation');
  const { name: companyName } = await tenantSettings(ctx);
  return ctx.transaction(async (tx) => {
    // Status, end and capacity are read under the row lock, so concurrent changes are seen.
    const locked = await tx.query.selectFrom('content.event').selectAll().where('id', '=', eventId).forUpdate().executeTakeFirst();
    if (!locked) throw notFound('Event');
    // bigint: PostgreSQL's driver gives it as text.
    const event = { ...locked, priceMinor: Number(locked.priceMinor) };
    if (event.status !== 'published')
      throw reasonError(event.status === 'cancelled' ? 'EVENT_CANCELLED' : 'EVENT_UNAVAILABLE', 'This event is not open for registration');
    if (event.endsAt.getTime() <= tx.now().getTime()) throw reasonError('EVENT_ENDED', 'This event is over');
    if (event.capacity != null) {
      const [taken] = await seatsTaken(tx, [event.id]);
      if (taken + quantity > event.capacity) {
        const left = Math.max(0, event.capacity - taken);
        throw reasonError('SOLD_OUT', left ? `Only ${left} place(s) left` : 'This event is sold out', { placesLeft: left });
      }
    }
    const paid = event.priceMinor > 0;
    const registration = tx.em.create(EventRegistration, {
      id: newId(),
      eventId: event.id,
      customerId: p.kind === 'customer' ? p.customerId : null,
      name,
      email,
      phone,
      quantity,
      status: paid ? 'PENDING_PAYMENT' : 'CONFIRMED',
      amountMinor: event.priceMinor * quantity,
      currency: event.currency,
    });
    // Commerce collects a paid registration's amount (and ends its payment window) from this.
    tx.publish('content.registration.created', {
      registrationId: registration.id,
      eventId: event.id,
      eventTitle: event.title,
      customerId: registration.customerId ?? null,
      email,
      status: paid ? 'PENDING_PAYMENT' : 'CONFIRMED',
      amountMinor: registration.amountMinor,
      currency: registration.currency,
      createdAt: tx.now().toISOString(),
    });
    const to = email ?? phone;
    if (to)
      enqueueMessage(tx, {
        companyId: tx.companyId,
        channel: email ? 'email' : 'sms',
        to,
        subject: `${companyName}: ${paid ? 'registration received' : 'you are registered'} for ${event.title}`,
        body: paid
          ? `We received your registration for ${event.title} (${quantity} place(s)). It is confirmed once paid. Reference: ${registration.id}.`
          : `You are registered for ${event.title} (${quantity} place(s)). Reference: ${registration.id}.`,
      });
    return registration;
  });
}

/** Whether a registration lets its holder in, and why not. */
export async function access(ctx: RequestContext, registrationId: string) {
  const registration = await ctx.first(ctx.query.selectFrom('content.event_registration').selectAll().where('id', '=', registrationId));
  if (!registration) throw notFound('Registration');
  const found = await ctx.first(ctx.query.selectFrom('content.event').selectAll().where('id', '=', registration.eventId));
  if (!found) throw notFound('Registration');
  // An event taken back to draft is not shown; the registration then grants nothing.
  const event = found.status === 'draft' ? null : found;
  const reason = !event
    ? 'EVENT_UNAVAILABLE'
    : registration.status === 'CANCELLED'
      ? 'REGISTRATION_CANCELLED'
      : registration.status === 'PENDING_PAYMENT'
        ? 'PAYMENT_PENDING'
        : event.status === 'cancelled'
          ? 'EVENT_CANCELLED'
          : event.endsAt.getTime() <= ctx.now().getTime()
            ? 'EVENT_ENDED'
            : null;
  return { registrationId: registration.id, granted: reason === null, reason, quantity: registration.quantity, status: registration.status, event };
}

export async function listRegistrations(ctx: RequestContext, eventId: IdOrSlug, args: { page?: number | null; limit?: number | null; search?: string | null }) {
  const event = await getEvent(ctx, eventId, false);
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('content.event_registration').selectAll().where('eventId', '=', event.id).orderBy('createdAt').orderBy('id');
  const search = req.search && likePattern(req.search);
  if (search) select = select.where((e) => e.or([e('name', 'ilike', search), e('email', 'ilike', search)]));
  return ctx.page(select, req);
}
