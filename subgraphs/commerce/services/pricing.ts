/**
 * An order's money, computed by the server from catalog prices: line totals, tax per line at its
 * product's rate (prices include tax or not, a company setting), shipping, the discount (from the
 * promotions hook) and the total. All in integer minor units of one currency.
 */
import type { RequestContext } from '../../kernel/context.ts';

export interface PricedLine {
  unitPriceMinor: number;
  quantity: number;
  /** Percent as a decimal string ("19", "7.5"). */
  taxRate: string;
}

export interface LineMoney {
  totalMinor: number;
  taxMinor: number;
}

/** Rate in thousandths of a percent, exactly (numeric(6,3) in the table). */
function rateMilli(rate: string): bigint {
  const [whole, fraction = ''] = rate.split('.');
  return BigInt(whole || '0') * 1000n + BigInt(fraction.padEnd(3, '0').slice(0, 3) || '0');
}

/** n / d rounded half away from zero, for non-negative n and positive d. */
const roundDiv = (n: bigint, d: bigint) => (n * 2n + d) / (2n * d);

/**
 * The tax in a line: with prices including tax, the part of the gross that is tax
 * (gross × r / (100 + r)); otherwise r% of the net. Rounded per line, half up.
 */
export function lineMoney(line: PricedLine, pricesIncludeTax: boolean): LineMoney {
  const total = BigInt(line.unitPriceMinor) * BigInt(line.quantity);
  const r = rateMilli(line.taxRate);
  const tax = r === 0n ? 0n : pricesIncludeTax ? roundDiv(total * r, 100_000n + r) : roundDiv(total * r, 100_000n);
  return { totalMinor: Number(total), taxMinor: Number(tax) };
}

export interface OrderMoney {
  subtotalMinor: number;
  shippingMinor: number;
  taxMinor: number;
  discountMinor: number;
  totalMinor: number;
}

/**
 * Totals: the subtotal is the sum of line totals (gross when prices include tax, net otherwise);
 * tax is added to the total only when prices exclude it. The discount never takes the total below
 * the shipping cost.
 */
export function orderMoney(lines: LineMoney[], shippingMinor: number, discountMinor: number, pricesIncludeTax: boolean): OrderMoney {
  const subtotalMinor = lines.reduce((s, l) => s + l.totalMinor, 0);
  const taxMinor = lines.reduce((s, l) => s + l.taxMinor, 0);
  const goods = subtotalMinor + (pricesIncludeTax ? 0 : taxMinor);
  const discount = Math.min(discountMinor, goods);
  return { subtotalMinor, shippingMinor, taxMinor, discountMinor: discount, totalMinor: goods - discount + shippingMinor };
}

/**
 * The discount of an order: zero until promotions arrive. The promotions issue fills this in (it
 * gets the code, the channel and the priced lines, and answers an amount or a 400 naming
 * `promotionCode`).
 */
export async function discountFor(_ctx: RequestContext, _order: { promotionCode: string | null; channel: 'online' | 'pos'; subtotalMinor: number; currency: string }): Promise<number> {
  return 0;
}
