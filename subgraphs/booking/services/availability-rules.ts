/** Working hours of staff members and resources: weekly, or changed for one date. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, notFound } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { formatTime, parseDate, parseTime } from '../../kernel/time.ts';
import { AvailabilityRule } from '../entities/availability-rule.ts';

export interface AvailabilityInput {
  dayOfWeek?: number | null;
  date?: string | null;
  startTime?: string | null;
  endTime?: string | null;
}

/**
 * Sets the hours of a staff member or resource for a weekday, or for one date (which overrides the
 * weekday). The given hours replace what that day had; a day without times is a day off.
 */
export async function setAvailability(ctx: RequestContext, ownerType: 'staff' | 'resource', ownerField: string, ownerId: unknown, input: AvailabilityInput) {
  if (!isUuid(ownerId)) throw badInput(ownerField, `must be a ${ownerType === 'staff' ? 'staff member' : 'resource'} id`);
  const owner = await ctx.first(ctx.query.selectFrom(ownerType === 'staff' ? 'booking.staff_member' : 'booking.resource').select('id').where('id', '=', ownerId));
  if (!owner) throw notFound(ownerType === 'staff' ? 'Staff member' : 'Resource');
  const hasDay = input.dayOfWeek != null;
  const hasDate = input.date != null && input.date !== '';
  if (hasDay === hasDate) throw badInput(hasDay ? 'date' : 'dayOfWeek', 'give either dayOfWeek (0 = Sunday … 6 = Saturday) or date, not both');
  if (hasDay && (!Number.isInteger(input.dayOfWeek) || input.dayOfWeek! < 0 || input.dayOfWeek! > 6)) throw badInput('dayOfWeek', 'must be 0 (Sunday) to 6 (Saturday)');
  const date = hasDate ? parseDate('date', input.date) : null;
  let start: number | null = null;
  let end: number | null = null;
  if (input.startTime || input.endTime) {
    start = parseTime('startTime', input.startTime);
    end = parseTime('endTime', input.endTime);
    if (end <= start) throw badInput('endTime', 'must be after startTime');
  }
  // Replace that day's rule: delete then insert in one transaction (a unique index keeps one per day).
  const rule = await ctx.transaction(async (tx) => {
    const rules = tx.query.deleteFrom('booking.availability_rule').where('ownerId', '=', ownerId);
    await (date ? rules.where('date', '=', date) : rules.where('dayOfWeek', '=', input.dayOfWeek!)).execute();
    return tx.em.create(AvailabilityRule, { id: newId(), ownerType, ownerId, dayOfWeek: date ? null : input.dayOfWeek, date, startMinute: start, endMinute: end });
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
