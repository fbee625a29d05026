import { Directive, Field, ObjectType } from 'type-graphql';
import { badInput } from './errors.ts';

/** Money is stored in integer minor units and shown as a decimal string in major units. */
@ObjectType({ description: 'An amount of money: a decimal string in major units and an ISO 4217 currency.' })
@Directive('@shareable')
export class Money {
  @Field(() => String) amount!: string;
  @Field(() => String) currency!: string;
}

export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

export function toMoney(minor: number, currency: string): Money {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const major = Math.floor(abs / 10 ** digits);
  const fraction = digits ? `.${String(abs % 10 ** digits).padStart(digits, '0')}` : '';
  return { amount: `${sign}${major}${fraction}`, currency };
}

/** Parses "49", "49.5" or "49.00" (major units) into minor units, exactly, without floating point. */
export function parseAmount(field: string, value: string | number, currency: string): number {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const digits = minorDigits(currency);
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!match) throw badInput(field, 'must be a non-negative decimal amount such as "49.00"');
  const fraction = match[2] ?? '';
  if (fraction.length > digits) throw badInput(field, `has more than ${digits} decimals for ${currency}`);
  return Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0);
}
