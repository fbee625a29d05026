import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';
import { pageOfAll, pageRequest, type ListQuery } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { tenantSettings } from '../../kernel/tenant.ts';
import { addDays, dayOfWeek, zonedInstantAfter } from '../../kernel/time.ts';
import { resourcesOfServices, staffOfServices } from './service-links.ts';
import { getService, type ServiceRow } from './services.ts';

type Staff = RowOf<'booking.staff_member'>;
type Room = RowOf<'booking.resource'>;

export interface Slot {
  start: Date;
  end: Date;
  staff: Staff[];
  resources: Room[];
  capacity: number;
  /** The most places any one offer has left. */
  remainingCapacity: number;
  /** Who can take the booking: per staff member and resource (either may be absent), the places left. */
  offers: { staff: Staff | null; resources: Room[]; remaining: number }[];
}

export interface SlotOptions {
  staffId?: string | null;
  resourceId?: string | null;
  /** A booking being moved does not block its own new time. */
  ignoreBookingId?: string;
  /** Slots as if nothing were booked: tells "taken" from "never offered". */
  ignoreBookings?: boolean;
  now?: Date;
}

/** Opening hours of a service that needs neither staff nor a resource. */
const DEFAULT_HOURS: [number, number] = [9 * 60, 18 * 60];
const MAX_RANGE_DAYS = 62;

/**
 * One occurrence: a service at a start time with its staff member and resource. Its seats share
 * them (the exclusion constraints let bookings of one occurrence overlap, and no others).
 */
export const occurrenceKey = (serviceId: string, start: Date, staffId: string | null, resourceId: string | null) =>
  `${serviceId}|${start.toISOString()}|${staffId ?? ''}|${resourceId ?? ''}`;

/** A day of an active service's times, optionally only those a staff member or resource is free for. */
export interface SlotDay {
  serviceId: string;
  /** YYYY-MM-DD in the company time zone. */
  date: string;
  staffId?: string | null;
  resourceId?: string | null;
}

/** The storefront's page of a day's open times, with the day and the time zone they are in. */
export async function slotsOnDay(ctx: RequestContext, { serviceId, date, staffId, resourceId }: SlotDay, args: ListQuery) {
  const req = pageRequest(args);
  const service = await getService(ctx, serviceId, { activeOnly: true });
  const { timeZone } = await tenantSettings(ctx);
  const slots = pageOfAll(await computeSlots(ctx, service, date, date, { staffId, resourceId }), req);
  return { serviceId: service.id, date, timeZone, ...slots };
}

/** Dates from and to (inclusive, YYYY-MM-DD in the company time zone) of a service's times. */
export interface SlotRange {
  serviceId: string;
  startDate: string;
  endDate: string;
}

/** The merchant's page of a service's open times over a range of days (at most 62), earliest first. */
export async function slotsBetween(ctx: RequestContext, { serviceId, startDate, endDate }: SlotRange, args: ListQuery) {
  const req = pageRequest(args);
  const service = await getService(ctx, serviceId);
  return pageOfAll(await computeSlots(ctx, service, startDate, endDate), req);
}

/**
 * Bookable times of a service between two dates (inclusive, in the company's time zone):
 * staff weekly hours and date overrides, resource hours, duration, buffers, minimum notice and
 * booking horizon, minus confirmed bookings. Seats of a group occurrence are sold until full.
 */
export async function computeSlots(ctx: RequestContext, service: ServiceRow, fromDate: string, toDate: string, options: SlotOptions = {}): Promise<Slot[]> {
  if (toDate < fromDate) throw badInput('endDate', 'must not be before startDate');
  if (addDays(fromDate, MAX_RANGE_DAYS) < toDate) throw badInput('endDate', `the range is at most ${MAX_RANGE_DAYS} days`);
  const { timeZone } = await tenantSettings(ctx);
  const now = options.now ?? new Date();

  // Reads made together travel as one statement (ctx.all): staff and resources, then hours and bookings.
  const [[linkedStaff], [linkedResources]] = await Promise.all([staffOfServices(ctx, [service.id]), resourcesOfServices(ctx, [service.id])]);
  if (options.staffId && !linkedStaff.some((s) => s.id === options.staffId)) throw badInput('staffId', 'does not perform this service');
  if (options.resourceId && !linkedResources.some((r) => r.id === options.resourceId)) throw badInput('resourceId', 'is not used by this service');
  const staff = service.requiresStaff ? linkedStaff.filter((s) => !options.staffId || s.id === options.staffId) : [];
  const resources = service.requiresResource ? linkedResources.filter((r) => !options.resourceId || r.id === options.resourceId) : [];
  if ((service.requiresStaff && !staff.length) || (service.requiresResource && !resources.length)) return [];

  const ownerIds = [...staff.map((s) => s.id), ...resources.map((r) => r.id)];
  const rangeStart = zonedInstantAfter(fromDate, 0, timeZone);
  const rangeEnd = zonedInstantAfter(addDays(toDate, 1), 0, timeZone);
  let bookingsQuery = ctx.query
    .selectFrom('booking.booking')
    .selectAll()
    .where('status', '=', 'CONFIRMED')
    .where('blockEnd', '>', new Date(rangeStart.getTime() - 86400000))
    .where('blockStart', '<', new Date(rangeEnd.getTime() + 86400000))
    .where((e) =>
      e.or([
        e('serviceId', '=', service.id),
        ...(staff.length ? [e('staffId', '=', anyOf(staff.map((s) => s.id)))] : []),
        ...(resources.length ? [e('resourceId', '=', anyOf(resources.map((r) => r.id)))] : []),
      ]),
    );
  if (options.ignoreBookingId) bookingsQuery = bookingsQuery.where('id', '<>', options.ignoreBookingId);
  const [rules, bookings] = await Promise.all([
    ownerIds.length ? ctx.all(ctx.query.selectFrom('booking.availability_rule').selectAll().where('ownerId', '=', anyOf(ownerIds))) : [],
    options.ignoreBookings ? [] : ctx.all(bookingsQuery),
  ]);

  const duration = service.durationMinutes * 60000;
  const before = service.bufferBeforeMinutes * 60000;
  const after = service.bufferAfterMinutes * 60000;
  const earliest = now.getTime() + service.minimumNoticeMinutes * 60000;
  const latest = now.getTime() + service.bookingHorizonDays * 86400000;

  const slots: Slot[] = [];
  for (let date = fromDate; date <= toDate; date = addDays(date, 1)) {
    const windowsOf = (ownerId: string, unconstrained: boolean) =>
      windows(
        rules.filter((r) => r.ownerId === ownerId),
        date,
        unconstrained,
        timeZone,
      );
    const staffWindows = new Map(staff.map((s) => [s.id, windowsOf(s.id, false)]));
    const resourceWindows = new Map(resources.map((r) => [r.id, windowsOf(r.id, true)]));
    // Candidate starts: every step of `duration` from the start of each window that may hold one.
    // (A resource without hours of its own only limits nothing; alone, it opens at default hours.)
    const defaultHours = toInstants([DEFAULT_HOURS], date, timeZone);
    const sources = service.requiresStaff
      ? [...staffWindows.values()]
      : service.requiresResource
        ? resources.map((r) => (rules.some((rule) => rule.ownerId === r.id) ? resourceWindows.get(r.id)! : defaultHours))
        : [defaultHours];
    const starts = new Set<number>();
    for (const list of sources) for (const [ws, we] of list) for (let t = ws; t + duration <= we; t += duration) starts.add(t);

    for (const t of [...starts].sort((a, b) => a - b)) {
      if (t < earliest || t > latest || t < rangeStart.getTime() || t >= rangeEnd.getTime()) continue;
      const start = new Date(t);
      const blockStart = t - before;
      const blockEnd = t + duration + after;
      const fits = (list: [number, number][] | undefined) => !!list?.some(([ws, we]) => ws <= t && t + duration <= we);
      // Busy: a booking of another occurrence overlaps our block on the same staff member or resource.
      // (Bookings of the offer's own occurrence are handled as `sold` below, before this is asked.)
      const busy = (field: 'staffId' | 'resourceId', id: string) =>
        bookings.some((b) => b[field] === id && b.blockStart.getTime() < blockEnd && b.blockEnd.getTime() > blockStart);

      // Each staff member and resource pair (or nobody / nothing, when not needed) is an occurrence
      // of its own; a group occurrence already sold keeps selling its remaining places.
      const offers: Slot['offers'] = [];
      for (const member of service.requiresStaff ? staff : [null]) {
        for (const resource of service.requiresResource ? resources : [null]) {
          const sold = bookings.filter(
            (b) =>
              b.serviceId === service.id &&
              b.startsAt.getTime() === t &&
              (b.staffId ?? null) === (member?.id ?? null) &&
              (b.resourceId ?? null) === (resource?.id ?? null),
          );
          if (sold.length) {
            const remaining = service.capacity - sold.reduce((n, b) => n + b.participants, 0);
            if (remaining > 0) offers.push({ staff: member, resources: resource ? [resource] : [], remaining });
            continue;
          }
          if (member && (!fits(staffWindows.get(member.id)) || busy('staffId', member.id))) continue;
          if (resource && (!fits(resourceWindows.get(resource.id)) || busy('resourceId', resource.id))) continue;
          offers.push({ staff: member, resources: resource ? [resource] : [], remaining: service.capacity });
        }
      }
      if (!offers.length) continue;
      slots.push({
        start,
        end: new Date(t + duration),
        staff: [...new Map(offers.flatMap((o) => (o.staff ? [[o.staff.id, o.staff] as const] : []))).values()],
        resources: [...new Map(offers.flatMap((o) => o.resources).map((r) => [r.id, r])).values()],
        capacity: service.capacity,
        remainingCapacity: Math.max(...offers.map((o) => o.remaining)),
        offers,
      });
    }
  }
  return slots;
}

/**
 * An owner's hours on a date as instants: the date's own rule if there is one (none = day off),
 * else the weekday's. Resources without any rule are not a constraint; staff without any are off.
 */
function windows(rules: RowOf<'booking.availability_rule'>[], date: string, unconstrained: boolean, timeZone: string): [number, number][] {
  if (!rules.length) return unconstrained ? toInstants([[0, 1440]], date, timeZone) : [];
  const dated = rules.filter((r) => normalizeDate(r.date) === date);
  const chosen = dated.length ? dated : rules.filter((r) => r.dayOfWeek === dayOfWeek(date));
  return toInstants(
    chosen.filter((r) => r.startMinute != null).map((r) => [r.startMinute!, r.endMinute!] as [number, number]),
    date,
    timeZone,
  );
}

function toInstants(ranges: [number, number][], date: string, timeZone: string): [number, number][] {
  return ranges.map(([s, e]) => [zonedInstantAfter(date, s, timeZone).getTime(), zonedInstantAfter(date, e, timeZone).getTime()]);
}

/** A `date` column may come back as a Date or a string depending on the driver. */
export function normalizeDate(value: unknown): string | null {
  if (value == null) return null;
  if (value instanceof Date) return `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, '0')}-${String(value.getDate()).padStart(2, '0')}`;
  return String(value).slice(0, 10);
}
