import { describe, expect, it } from 'vitest';
import { parseAmount, toMoney } from '../../subgraphs/kernel/money.ts';
import { pageRequest, toPage } from '../../subgraphs/kernel/pagination.ts';
import { slugify } from '../../subgraphs/kernel/validation.ts';

describe('kernel values', () => {
  it('formats and parses money exactly in minor units', () => {
    expect(toMoney(4900, 'USD')).toEqual({ amount: '49.00', currency: 'USD' });
    expect(toMoney(5, 'EUR')).toEqual({ amount: '0.05', currency: 'EUR' });
    expect(toMoney(1500, 'JPY')).toEqual({ amount: '1500', currency: 'JPY' });
    expect(toMoney(-1234, 'USD').amount).toBe('-12.34');
    expect(parseAmount('price', '49.00', 'USD')).toBe(4900);
    expect(parseAmount('price', '0.1', 'USD')).toBe(10);
    expect(parseAmount('price', 19.99, 'USD')).toBe(1999);
    expect(parseAmount('price', '1500', 'JPY')).toBe(1500);
    expect(() => parseAmount('price', '1.234', 'USD')).toThrow(/price/);
    expect(() => parseAmount('price', '1.5', 'JPY')).toThrow(/price/);
    expect(() => parseAmount('price', '-3', 'USD')).toThrow(/price/);
  });

  it('normalises list arguments and builds pagination', () => {
    expect(pageRequest({})).toEqual({ page: 1, limit: 20, offset: 0, search: undefined });
    expect(pageRequest({ page: 3, limit: 10, search: '  yoga ' })).toEqual({ page: 3, limit: 10, offset: 20, search: 'yoga' });
    expect(() => pageRequest({ limit: 101 })).toThrow(/limit/);
    expect(() => pageRequest({ page: 0 })).toThrow(/page/);
    expect(toPage([1, 2], 45, pageRequest({ page: 2, limit: 20 })).pagination).toEqual({ page: 2, limit: 20, total: 45, totalPages: 3, hasNextPage: true });
  });

  it('makes readable slugs, Latin or not', () => {
    expect(slugify('Zen Yoga & Spa!')).toBe('zen-yoga-spa');
    expect(slugify('Café Crème')).toBe('cafe-creme');
    expect(slugify('Привет мир')).toBe('привет-мир');
  });
});
