/** Checks of values the zod words (schemas.ts) and the slugs share. */
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
