import { badInput } from './errors.ts';

/** Small input checks shared by every subgraph; each failure names its field. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requireText(field: string, value: unknown, max = 200): string {
  if (typeof value !== 'string' || !value.trim()) throw badInput(field, 'is required');
  // PostgreSQL text cannot hold NUL; say so rather than fail on insert.
  if (value.includes('\u0000')) throw badInput(field, 'must not contain NUL characters');
  const v = value.trim();
  if (v.length > max) throw badInput(field, `must be at most ${max} characters`);
  return v;
}

/** A value from a fixed list (states, types), compared in the list's case; 400 naming the field otherwise. */
export function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[], normalize: (v: string) => string = (v) => v): T {
  const v = normalize(String(value ?? '')) as T;
  if (!allowed.includes(v)) throw badInput(field, `must be one of ${allowed.join(', ')}`);
  return v;
}

export const lowerCase = (v: string) => v.toLowerCase();

export function optionalText(field: string, value: unknown, max = 200): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return requireText(field, value, max);
}

export function normalizeEmail(field: string, value: unknown): string {
  const v = requireText(field, value, 254).toLowerCase();
  if (!EMAIL.test(v)) throw badInput(field, 'must be a valid email address');
  return v;
}

/** Phones are kept in E.164-like form: a leading + and 7 to 15 digits. */
export function normalizePhone(field: string, value: unknown): string {
  const raw = requireText(field, value, 32);
  const digits = raw.replace(/[\s().-]/g, '');
  if (!/^\+?[0-9]{7,15}$/.test(digits)) throw badInput(field, 'must be a phone number with 7 to 15 digits');
  return digits.startsWith('+') ? digits : `+${digits}`;
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz.includes('/') || tz === 'UTC';
  } catch {
    return false;
  }
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
export const isValidCurrency = (code: string) => CURRENCIES.has(code);

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region' });
export function isValidCountry(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code)) return false;
  return REGIONS.of(code) !== code;
}

/**
 * A URL-safe slug from any text: accents are dropped from Latin letters (Café → cafe), every other
 * script is kept as it is written (NFC, with its combining marks), words joined by hyphens.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/([A-Za-z])[\u0300-\u036f]+/g, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

/** A slug as given in a URL or input: NFC and lower case, so it matches what slugify stored. */
export const normalizeSlug = (value: string) => value.trim().normalize('NFC').toLowerCase();
