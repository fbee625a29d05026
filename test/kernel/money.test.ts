import { describe, expect, it } from 'vitest';
import { AppError } from '../../subgraphs/kernel/errors.ts';
import {
  add,
  allocate,
  amount,
  compare,
  isZero,
  max,
  min,
  minorDigits,
  multiply,
  negate,
  parseAmount,
  percentOf,
  subtract,
  toMoney,
} from '../../subgraphs/kernel/money.ts';

const usd = (minor: number) => amount(minor, 'USD');
const minors = (parts: { minor: number }[]) => parts.map((p) => p.minor);
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.extensions.code : (error as Error).name;
  }
  return 'no error';
};

describe('minorDigits', () => {
  it('knows each currency and returns the same digits when memoized', () => {
    expect(minorDigits('USD')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('KWD')).toBe(3);
    expect(minorDigits('BHD')).toBe(3);
    for (let i = 0; i < 3; i++) expect([minorDigits('USD'), minorDigits('JPY'), minorDigits('KWD')]).toEqual([2, 0, 3]);
  });

  it('still throws RangeError for a malformed code, every time (failures are not cached)', () => {
    expect(() => minorDigits('US')).toThrow(RangeError);
    expect(() => minorDigits('US')).toThrow(RangeError);
    expect(() => minorDigits('')).toThrow(RangeError);
  });
});

describe('toMoney and parseAmount', () => {
  it('formats small negatives, zero and zero- or three-decimal currencies', () => {
    expect(toMoney(-5, 'USD').amount).toBe('-0.05');
    expect(toMoney(-50, 'USD').amount).toBe('-0.50');
    expect(toMoney(0, 'USD').amount).toBe('0.00');
    expect(toMoney(-0, 'USD').amount).toBe('0.00');
    expect(toMoney(1500, 'JPY')).toEqual({ amount: '1500', currency: 'JPY' });
    expect(toMoney(-7, 'JPY').amount).toBe('-7');
    expect(toMoney(1234, 'KWD')).toEqual({ amount: '1.234', currency: 'KWD' });
    expect(toMoney(5, 'BHD').amount).toBe('0.005');
    expect(toMoney(-1005, 'BHD').amount).toBe('-1.005');
  });

  it('parses JPY and KWD exactly', () => {
    expect(parseAmount('price', '1500', 'JPY')).toBe(1500);
    expect(() => parseAmount('price', '1.5', 'JPY')).toThrow('price: has more than 0 decimals for JPY');
    expect(parseAmount('price', '1.234', 'KWD')).toBe(1234);
    expect(parseAmount('price', '0.5', 'KWD')).toBe(500);
    expect(() => parseAmount('price', '1.2345', 'KWD')).toThrow(/more than 3 decimals for KWD/);
  });

  it('rejects negatives by default with the existing message, accepts them when allowed', () => {
    expect(() => parseAmount('price', '-5.00', 'USD')).toThrow('price: must be a non-negative decimal amount such as "49.00"');
    expect(codeOf(() => parseAmount('price', '-5.00', 'USD'))).toBe('BAD_USER_INPUT');
    expect(parseAmount('refund', '-5.00', 'USD', { allowNegative: true })).toBe(-500);
    expect(parseAmount('refund', -0.05, 'USD', { allowNegative: true })).toBe(-5);
    expect(parseAmount('refund', '-3', 'JPY', { allowNegative: true })).toBe(-3);
    expect(parseAmount('refund', '12.00', 'USD', { allowNegative: true })).toBe(1200);
    expect(Object.is(parseAmount('refund', '-0.00', 'USD', { allowNegative: true }), 0)).toBe(true);
    expect(() => parseAmount('refund', '--5', 'USD', { allowNegative: true })).toThrow(/refund/);
    expect(() => parseAmount('refund', '-1.234', 'USD', { allowNegative: true })).toThrow(/more than 2 decimals/);
  });

  it('refuses amounts past 2^53 instead of rounding them', () => {
    expect(() => parseAmount('price', '999999999999.9999', 'CLF')).toThrow('price: is too large');
  });
});

describe('amount arithmetic', () => {
  it('makes, adds, subtracts, negates and multiplies', () => {
    expect(usd(4900)).toEqual({ minor: 4900, currency: 'USD' });
    expect(add(usd(150), usd(-50))).toEqual(usd(100));
    expect(subtract(usd(150), usd(200))).toEqual(usd(-50));
    expect(negate(usd(5))).toEqual(usd(-5));
    expect(Object.is(negate(usd(0)).minor, 0)).toBe(true);
    expect(multiply(usd(1999), 3)).toEqual(usd(5997));
    expect(multiply(usd(-250), 2)).toEqual(usd(-500));
    expect(Object.is(multiply(usd(0), -1).minor, 0)).toBe(true);
  });

  it('compares, picks min and max, and spots zero', () => {
    expect(compare(usd(1), usd(2))).toBe(-1);
    expect(compare(usd(2), usd(2))).toBe(0);
    expect(compare(usd(3), usd(-2))).toBe(1);
    expect([usd(3), usd(-1), usd(2)].sort(compare).map((a) => a.minor)).toEqual([-1, 2, 3]);
    expect(min(usd(3), usd(-1))).toEqual(usd(-1));
    expect(max(usd(3), usd(-1))).toEqual(usd(3));
    expect(isZero(usd(0))).toBe(true);
    expect(isZero(usd(-1))).toBe(false);
  });

  it('refuses to mix currencies, naming both', () => {
    const eur = amount(100, 'EUR');
    for (const fn of [add, subtract, compare, min, max]) {
      expect(() => fn(usd(100), eur)).toThrow('currency mismatch: cannot combine USD with EUR');
      expect(codeOf(() => fn(usd(100), eur))).toBe('BAD_USER_INPUT');
    }
  });

  it('guards against non-integer and unsafe minor units and quantities', () => {
    expect(codeOf(() => usd(1.5))).toBe('BAD_USER_INPUT');
    expect(codeOf(() => usd(Number.NaN))).toBe('BAD_USER_INPUT');
    expect(codeOf(() => usd(2 ** 53))).toBe('BAD_USER_INPUT');
    expect(codeOf(() => add(usd(Number.MAX_SAFE_INTEGER), usd(1)))).toBe('BAD_USER_INPUT');
    expect(codeOf(() => multiply(usd(Number.MAX_SAFE_INTEGER), 2))).toBe('BAD_USER_INPUT');
    expect(codeOf(() => multiply(usd(100), 1.5))).toBe('BAD_USER_INPUT');
    expect(codeOf(() => amount(1, 'US'))).toBe('RangeError');
  });
});

describe('percentOf', () => {
  it('rounds half up, and half away from zero for negatives', () => {
    expect(percentOf(usd(10), 25).minor).toBe(3); // 2.5 → 3
    expect(percentOf(usd(-10), 25).minor).toBe(-3); // -2.5 → -3
    expect(percentOf(usd(10), 24).minor).toBe(2); // 2.4 → 2
    expect(percentOf(usd(-10), 24).minor).toBe(-2);
    expect(percentOf(usd(10), 26).minor).toBe(3); // 2.6 → 3
    expect(percentOf(usd(1), 50).minor).toBe(1); // 0.5 → 1
    expect(percentOf(usd(1), 49).minor).toBe(0);
    expect(percentOf(usd(4900), 100)).toEqual(usd(4900));
    expect(Object.is(percentOf(usd(-1), 10).minor, 0)).toBe(true); // -0.1 → 0, not -0
  });

  it('takes fractional percents exactly', () => {
    expect(percentOf(usd(4), 12.5).minor).toBe(1); // 0.5 → 1
    expect(percentOf(usd(-4), 12.5).minor).toBe(-1);
    expect(percentOf(usd(1000), 12.5).minor).toBe(125);
    expect(percentOf(usd(5), 10.1).minor).toBe(1); // 0.505 → 1
    expect(percentOf(usd(1500), 33.3).minor).toBe(500); // 499.5 exactly → 500 (floats would give 499.49…)
    expect(percentOf(amount(Number.MAX_SAFE_INTEGER, 'USD'), 100).minor).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('rejects percents that are not finite decimals', () => {
    expect(codeOf(() => percentOf(usd(100), Number.NaN))).toBe('BAD_USER_INPUT');
    expect(codeOf(() => percentOf(usd(100), Infinity))).toBe('BAD_USER_INPUT');
  });
});

describe('allocate', () => {
  const check = (total: number, weights: number[], expected: number[]) => {
    const parts = allocate(usd(total), weights);
    expect(minors(parts)).toEqual(expected);
    expect(parts.reduce((s, p) => s + p.minor, 0)).toBe(total);
    expect(parts.every((p) => p.currency === 'USD')).toBe(true);
  };

  it('splits by largest remainder, ties to earlier lines, summing exactly', () => {
    check(100, [1, 1, 1], [34, 33, 33]);
    check(1, [1, 1, 1], [1, 0, 0]);
    check(2, [1, 1, 1], [1, 1, 0]);
    check(0, [1, 1, 1], [0, 0, 0]);
    check(1000, [1, 2, 3], [167, 333, 500]); // 166.67 / 333.33 / 500
    check(10, [3, 3, 4], [3, 3, 4]);
    check(5, [1, 3], [1, 4]); // 1.25 / 3.75: the larger remainder wins
    check(100, [7], [100]);
  });

  it('splits negative totals as the mirror of positive ones', () => {
    check(-100, [1, 1, 1], [-34, -33, -33]);
    check(-1, [1, 1, 1], [-1, 0, 0]);
    check(-1000, [1, 2, 3], [-167, -333, -500]);
    expect(allocate(usd(-1), [1, 1]).every((p) => Object.is(p.minor, -1) || Object.is(p.minor, 0))).toBe(true);
  });

  it('gives nothing to zero weights', () => {
    check(100, [0, 1, 1], [0, 50, 50]);
    check(101, [1, 0, 1], [51, 0, 50]);
    check(1, [0, 0, 1], [0, 0, 1]);
    check(0, [0, 0], [0, 0]);
    expect(codeOf(() => allocate(usd(100), [0, 0]))).toBe('BAD_USER_INPUT');
  });

  it('sums exactly over many random splits', () => {
    for (let n = 0; n < 500; n++) {
      const weights = Array.from({ length: 1 + (n % 7) }, (_, i) => ((n * 31 + i * 17) % 13) + (i === 0 ? 1 : 0));
      const total = ((n * 7919) % 20001) - 10000;
      const parts = allocate(usd(total), weights);
      expect(parts.reduce((s, p) => s + p.minor, 0)).toBe(total);
      weights.forEach((w, i) => {
        if (w === 0) expect(parts[i].minor).toBe(0);
        // each part is within one unit of its exact share
        expect(Math.abs(parts[i].minor - (total * w) / weights.reduce((a, b) => a + b, 0))).toBeLessThan(1);
      });
    }
  });

  it('rejects bad weights', () => {
    expect(codeOf(() => allocate(usd(100), []))).toBe('BAD_USER_INPUT');
    expect(codeOf(() => allocate(usd(100), [1, -1]))).toBe('BAD_USER_INPUT');
    expect(codeOf(() => allocate(usd(100), [0.5, 0.5]))).toBe('BAD_USER_INPUT');
  });
});
