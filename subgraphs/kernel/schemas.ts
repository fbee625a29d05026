/**
 * Inputs are checked at the edge: each resolver parses its arguments with a zod schema kept beside it
 * (`resolvers/<name>.inputs.ts`) and hands its service the typed, normalised value. A service then
 * checks only what needs the database or the entity (existence, state, rules across stored fields).
 * These are the words those schemas are written in; every problem reads "<field>: <what is wrong>".
 */
import { z } from 'zod';
import { badInput } from './errors.ts';
import { isUuid } from './ids.ts';
import { parseDate } from './time.ts';
import { isValidCountry, isValidCurrency, isValidTimeZone, normalizeSlug } from './validation.ts';

/** The value of `schema`, or 400 BAD_USER_INPUT naming the first bad field (under `field` when given). */
export function parse<S extends z.ZodType>(schema: S, value: unknown, field?: string): z.output<S> {
  const parsed = schema.safeParse(value, { error: wording });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw badInput(fieldPath(field, issue.path) || 'input', issue.message);
}

/** `items[0].quantity`: the path as a client writes it. */
function fieldPath(field: string | undefined, path: readonly PropertyKey[]): string {
  return path.reduce<string>((at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)), field ?? '');
}

/** Our wording for the problems a schema leaves unworded. */
function wording(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.input === undefined || (issue.input === null && issue.code === 'invalid_type')) return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${issue.expected === 'int' ? 'an integer' : issue.expected === 'date' ? 'an ISO-8601 date-time' : issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return issue.origin === 'string'
        ? Number(issue.minimum) <= 1
          ? 'is required'
          : `must be at least ${issue.minimum} characters`
        : issue.origin === 'array'
          ? `must have at least ${issue.minimum} items`
          : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters`
        : issue.origin === 'array'
          ? `must have at most ${issue.maximum} items`
          : `must be at most ${issue.maximum}`;
    default:
      return 'is not valid';
  }
}

/** Text, trimmed, not empty, at most `max` characters (PostgreSQL text cannot hold NUL: said so rather than failing on insert). */
export const text = (max = 200) =>
  z
    .string()
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters')
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`);

/** Optional text: absent, null or blank is `undefined` (nothing given). */
export const optionalText = (max = 200) => z.preprocess((v) => (v === null || (typeof v === 'string' && !v.trim()) ? undefined : v), text(max).optional());

/** Text that can be cleared: absent stays `undefined` (unchanged), null or blank is `null` (cleared). */
export const clearableText = (max = 200) => z.preprocess((v) => (typeof v === 'string' && !v.trim() ? null : v), text(max).nullable().optional());

/** The id of a record, a UUID ("must be a booking id" otherwise). */
export const id = (what: string) => z.string().refine(isUuid, `must be a ${what} id`);

/** A value from a fixed list (states, types), compared in the list's case after `normalize`. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, normalize: (v: string) => string = (v) => v) =>
  z.preprocess((v) => (typeof v === 'string' ? normalize(v) : v), z.enum(values, { error: `must be one of ${values.join(', ')}` }));

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An email address, trimmed and lower-cased. */
export const email = () =>
  text(254)
    .transform((v) => v.toLowerCase())
    .refine((v) => EMAIL.test(v), 'must be a valid email address');

/** A phone number kept in E.164-like form: a leading + and 7 to 15 digits. */
export const phone = () =>
  text(32)
    .transform((v) => v.replace(/[\s().-]/g, ''))
    .refine((v) => /^\+?[0-9]{7,15}$/.test(v), 'must be a phone number with 7 to 15 digits')
    .transform((v) => (v.startsWith('+') ? v : `+${v}`));

/** A whole number from `min` to `max`. */
export const whole = (min: number, max: number) =>
  z
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be a whole number from ${min} to ${max}`)
    .max(max, `must be a whole number from ${min} to ${max}`);

/** An instant between 1970 and 9998 (the DateTime scalar has parsed it already). */
export const instant = () =>
  z
    .date()
    .refine(
      (d) => !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= 1970 && d.getUTCFullYear() <= 9998,
      'must be an ISO-8601 date-time between 1970 and 9998',
    );

/** A decimal amount in major units as given ("49.90"); its precision is checked against the company's currency by the service. */
export const amount = () => z.union([z.string(), z.number()]).transform((v) => String(v).trim());

export const timeZone = () => z.string().refine(isValidTimeZone, 'must be an IANA time zone such as Europe/Berlin');
export const currency = () =>
  z
    .string()
    .transform((v) => v.trim().toUpperCase())
    .refine(isValidCurrency, 'must be an ISO 4217 currency code such as EUR');
export const country = () =>
  z
    .string()
    .transform((v) => v.trim().toUpperCase())
    .refine(isValidCountry, 'must be an ISO 3166-1 alpha-2 country code such as US');

/** A slug as given in a URL or input, NFC and lower case (as slugify stores it). */
export const slug = () => text(200).transform(normalizeSlug);

/** An absolute http(s) URL (an image, a logo), trimmed. */
export const url = (max = 2000) => text(max).refine((v) => /^https?:\/\/\S+$/i.test(v), 'must be an http(s) URL');

/** A calendar date, YYYY-MM-DD, between 1970 and 9998 (as kernel/time.ts parseDate reads it). */
export const calendarDate = () =>
  z.string().refine((v) => {
    try {
      return !!parseDate('date', v);
    } catch {
      return false;
    }
  }, 'must be a date as YYYY-MM-DD (1970 to 9998)');

/** Optional `schema`: absent, null or blank is `undefined` (nothing given), as optionalText for text. */
export const ifGiven = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === null || (typeof v === 'string' && !v.trim()) ? undefined : v), schema.optional());
