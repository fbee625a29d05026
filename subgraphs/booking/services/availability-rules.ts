/** Working hours of staff members and resources: weekly, or changed for one date. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { formatTime } from '../../kernel/time.ts';
import { AvailabilityRule } from '../entities/availability-rule.ts';

/** A day's hours as the edge checked them (resolvers/availability-rule.inputs.ts). */
export interface AvailabilityHours {
  /** 0 = Sunday … 6 = Saturday: weekly hours; or `date`. */
  dayOfWeek?: number | null;
  /** YYYY-MM-DD: a one-off change replacing that day's weekly hours. */
  date?: string | null;
  /** Minutes after local midnight (read from HH:MM); neither start nor end for a day off. */
  startTime?: number | null;
  endTime?: number | null;
}

const TIME = 'must be a time as HH:MM (00:00 to 24:00)';

/**
 * Sets the hours of a staff member or resource for a weekday, or for one date (which overrides the
 * weekday). The given hours replace what that day had; a day without times is a day off.
 */
export async function setAvailability(ctx: RequestContext, ownerType: 'staff' | 'resource', ownerId: string, input: AvailabilityHours) {
  const owner = await ctx.first(
    ctx.query
      .selectFrom(ownerType === 'staff' ? 'booking.staff_member' : 'booking.resource')
      .select('id')
      .where('id', '=', ownerId),
  );
  if (!owner) throw notFound(ownerType === 'staff' ? 'Staff member' : 'Resource');
  const hasDay = input.dayOfWeek != null;
  const date = input.date ?? null;
  if (hasDay === (date != null)) throw badInput(hasDay ? 'date' : 'dayOfWeek', 'give either dayOfWeek (0 = Sunday … 6 = Saturday) or date, not both');
  const start = input.startTime ?? null;
  const end = input.endTime ?? null;
  // A day's hours need both ends; a day off gives neither.
  if (start != null || end != null) {
    if (start == null) throw badInput('startTime', TIME);
    if (end == null) throw badInput('endTime', TIME);
    if (end <= start) throw badInput('endTime', 'must be after startTime');
  }
  // Replace that day's rule: delete then insert in one transaction (a unique index keeps one per day).
  const rule = await ctx.transaction(async (tx) => {
    const rules = tx.query.deleteFrom('booking.availability_rule').where('ownerId', '=', ownerId);
    await (date ? rules.where('date', '=', date) : rules.where('dayOfWeek', '=', input.dayOfWeek!)).execute();
    return tx.em.create(AvailabilityRule, {
      id: newId(),
      ownerType,
      ownerId,
      dayOfWeek: date ? null : input.dayOfWeek,
      date,
      startMinute: start,
      endMinute: end,
    });
  });
  return availabilityView(rule);
}

export function availabilityView(rule: AvailabilityRule) {
  return {
    id: rule.id,
    ownerId: rule.ownerId,
    dayOfWeek: rule.dayOfWeek ?? null,
    date: rule.date ?? null,
    startTime: rule.startMinute == null ? null : formatTime(rule.startMinute),
    endTime: rule.endMinute == null ? null : formatTime(rule.endMinute!),
    available: rule.startMinute != null,
  };
}
