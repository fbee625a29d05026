import { Directive, Field, ObjectType } from 'type-graphql';
import { AppError, badInput } from './errors.ts';

/** Money is stored in integer minor units and shown as a decimal string in major units. */
@ObjectType({ description: 'An amount of money: a decimal string in major units and an ISO 4217 currency.' })
@Directive('@shareable')
export class Money {
  @Field(() => String) amount!: string;
  @Field(() => String) currency!: string;
}

/**
 * Building an Intl.NumberFormat is costly and was 6–7% of CPU on list reads, so digits are cached per
 * code. Only codes Intl accepts are stored: a malformed one still throws its RangeError on every call,
 * and well-formed codes are three ASCII letters, so the map stays bounded.
 */
const DIGITS = new Map<string, number>();

export function minorDigits(currency: string): number {
  let digits = DIGITS.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    DIGITS.set(currency, digits);
  }
  return digits;
}

export function toMoney(minor: number, currency: string): Money {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const major = Math.floor(abs / 10 ** digits);
  const fraction = digits ? `.${String(abs % 10 ** digits).padStart(digits, '0')}` : '';
  return { amount: `${sign}${major}${fraction}`, currency };
}

/**
 * Parses "49", "49.5" or "49.00" (major units) into minor units, exactly, without floating point.
 * Negatives ("-5.00") only with `allowNegative`, for refunds and adjustments; prices stay non-negative.
 */
export function parseAmount(field: string, value: string | number, currency: string, options: { allowNegative?: boolean } = {}): number {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const digits = minorDigits(currency);
  const match = /^(-?)(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!match || (match[1] && !options.allowNegative)) {
    throw badInput(
      field,
      options.allowNegative ? 'must be a decimal amount such as "49.00" or "-5.00"' : 'must be a non-negative decimal amount such as "49.00"',
    );
  }
  const fraction = match[3] ?? '';
  if (fraction.length > digits) throw badInput(field, `has more than ${digits} decimals for ${currency}`);
  const abs = Number(match[2]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0);
  // 12 integer digits plus 4 decimals (CLF) can pass 2^53; refuse rather than store a rounded value.
  if (!Number.isSafeInteger(abs)) throw badInput(field, 'is too large');
  return match[1] ? 0 - abs : abs; // 0 - 0 is +0, so "-0.00" parses to 0, not -0
}

// ---- Arithmetic in integer minor units ----------------------------------------------------------

/** An amount in integer minor units (cents for USD, yen for JPY, fils for KWD). */
export interface Amount {
  readonly minor: number;
  readonly currency: string;
}

/** Bad amounts and mixed currencies come from a caller's input or a bug; both are refused as 400s. */
const invalid = (message: string, details: Record<string, unknown> = {}) => new AppError('BAD_USER_INPUT', message, details);

function checkMinor(minor: number, what = 'amount'): number {
  if (!Number.isSafeInteger(minor)) throw invalid(`${what} must be a safe integer number of minor units, got ${minor}`);
  return minor || 0; // normalise -0 (from 0 * -1 and the like) so equality checks and formatting see 0
}

/** An amount of `minor` units of `currency`; the currency is checked by Intl (RangeError if malformed). */
export function amount(minor: number, currency: string): Amount {
  minorDigits(currency);
  return { minor: checkMinor(minor), currency };
}

function same(a: Amount, b: Amount): string {
  if (a.currency !== b.currency) {
    throw invalid(`currency mismatch: cannot combine ${a.currency} with ${b.currency}`, { currencies: [a.currency, b.currency] });
  }
  return a.currency;
}

export const add = (a: Amount, b: Amount): Amount => amount(a.minor + b.minor, same(a, b));
export const subtract = (a: Amount, b: Amount): Amount => amount(a.minor - b.minor, same(a, b));
export const negate = (a: Amount): Amount => amount(0 - a.minor, a.currency);
export const isZero = (a: Amount): boolean => a.minor === 0;

/** Unit price times an integer quantity. */
export function multiply(a: Amount, quantity: number): Amount {
  if (!Number.isSafeInteger(quantity)) throw invalid(`quantity must be an integer, got ${quantity}`);
  return amount(a.minor * quantity, a.currency);
}

/** -1, 0 or 1; usable as a sort comparator. */
export function compare(a: Amount, b: Amount): -1 | 0 | 1 {
  same(a, b);
  return a.minor < b.minor ? -1 : a.minor > b.minor ? 1 : 0;
}
export const min = (a: Amount, b: Amount): Amount => (compare(a, b) <= 0 ? a : b);
export const max = (a: Amount, b: Amount): Amount => (compare(a, b) >= 0 ? a : b);

/**
 * `percent`% of an amount, rounded half away from zero (12.5% of 1 cent is 0, of 4 cents 1; of -4
 * cents -1). The percent may be fractional ("12.5"): it is read as the decimal it prints as and the
 * product is computed in BigInt, so 0.1-style binary fractions and large totals cannot mis-round.
 */
export function percentOf(a: Amount, percent: number): Amount {
  const match = Number.isFinite(percent) ? /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(percent)) : null;
  if (!match) throw invalid(`percent must be a finite decimal number, got ${percent}`);
  const decimals = match[3] ?? '';
  const numerator = BigInt(a.minor) * BigInt(`${match[1]}${match[2]}${decimals}`);
  const denominator = 100n * 10n ** BigInt(decimals.length);
  let quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator % denominator; // same sign as the numerator
  if (2n * (remainder < 0n ? -remainder : remainder) >= denominator) quotient += numerator < 0n ? -1n : 1n;
  return amount(Number(quotient), a.currency);
}

/**
 * Splits `total` over non-negative integer weights (e.g. line amounts, or [1, 1, 1] for equal parts)
 * by the largest-remainder method: each part gets its floor share, then the units left over go one by
 * one to the largest remainders, ties to earlier lines. The parts always sum to `total` exactly and a
 * zero weight gets nothing. A negative total is split as its magnitude and negated, so -100 over three
 * is -34/-33/-33, mirroring 100.
 */
export function allocate(total: Amount, weights: readonly number[]): Amount[] {
  if (!weights.length) throw invalid('allocation needs at least one weight');
  for (const w of weights) if (!Number.isSafeInteger(w) || w < 0) throw invalid(`allocation weights must be non-negative integers, got ${w}`);
  const sumWeights = weights.reduce((s, w) => s + BigInt(w), 0n);
  if (sumWeights === 0n) {
    if (total.minor === 0) return weights.map(() => amount(0, total.currency));
    throw invalid('cannot allocate a non-zero amount over weights that are all zero');
  }
  const magnitude = BigInt(Math.abs(total.minor));
  const parts = weights.map((w) => (magnitude * BigInt(w)) / sumWeights);
  const remainders = weights.map((w) => (magnitude * BigInt(w)) % sumWeights);
  let left = Number(magnitude - parts.reduce((s, p) => s + p, 0n)); // always fewer than weights.length
  const order = weights.map((_, i) => i).sort((i, j) => (remainders[j] > remainders[i] ? 1 : remainders[j] < remainders[i] ? -1 : i - j));
  for (const i of order) {
    if (left-- <= 0) break;
    parts[i] += 1n;
  }
  const sign = total.minor < 0 ? -1 : 1;
  return parts.map((p) => amount(sign * Number(p), total.currency));
}
