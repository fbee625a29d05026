import { badInput } from './errors.ts';

/**
 * Calendar arithmetic in a company's IANA time zone with nothing but Intl: a date such as
 * 2026-05-01 means that day in the zone, and local times map to instants across DST changes.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall clock of an instant in a zone. */
export function wallClock(instant: Date, tz: string): { date: string; time: string; minutes: number } {
  const parts = Object.fromEntries(
    formatter(tz)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const hour = parts.hour === '24' ? '00' : parts.hour;
  return {
    date: `${parts.year.padStart(4, '0')}-${parts.month}-${parts.day}`,
    time: `${hour}:${parts.minute}`,
    minutes: Number(hour) * 60 + Number(parts.minute),
  };
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(instant: Date, tz: string): number {
  const { date, time } = wallClock(instant, tz);
  const asUtc = Date.parse(`${date}T${time}:00Z`);
  return Math.round((asUtc - Math.floor(instant.getTime() / 60000) * 60000) / 60000);
}

/** The instant a local date and time happen in a zone; null inside a spring-forward gap. */
export function zonedInstant(date: string, minutesOfDay: number, tz: string): Date | null {
  const local = Date.parse(`${date}T00:00:00Z`) + minutesOfDay * 60000;
  let guess = local - offsetMinutes(new Date(local), tz) * 60000;
  guess = local - offsetMinutes(new Date(guess), tz) * 60000;
  const check = wallClock(new Date(guess), tz);
  const expected = new Date(local).toISOString();
  return `${check.date}T${check.time}` === expected.slice(0, 16) ? new Date(guess) : null;
}

/** Like zonedInstant, but a local time inside a DST gap moves to the first valid minute after it. */
export function zonedInstantAfter(date: string, minutesOfDay: number, tz: string): Date {
  for (let m = minutesOfDay; m <= minutesOfDay + 180; m += 1) {
    const at = zonedInstant(date, m, tz);
    if (at) return at;
  }
  throw new Error(`No valid local time near ${date} ${minutesOfDay} in ${tz}`);
}

export const dayOfWeek = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
}

/** A calendar date, YYYY-MM-DD, between 1970 and 9998 (so a day after it still has a 4-digit year). */
export function parseDate(field: string, value: unknown): string {
  const valid =
    typeof value === 'string' &&
    /^(19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}$/.test(value) &&
    value < '9999' &&
    !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
    new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
  if (!valid) throw badInput(field, 'must be a date as YYYY-MM-DD (1970 to 9998)');
  return value as string;
}

export const formatTime = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
