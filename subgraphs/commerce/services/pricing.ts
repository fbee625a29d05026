/**
 * An order's money, computed by the server from catalog prices: line totals, tax per line at its
 * product's rate (prices include tax or not, a company setting), shipping, the discount (from the
 * order's promotion code, services/promotions.ts) and the total. All in integer minor units of one currency.
 */

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
 * Totals: the subtotal is the sum of line totals (gross when prices include tax, net otherwise).
 * A discount comes off the subtotal (never more than it) and lowers the tax in proportion, as a
 * discount spread over every line would; tax is added to the total only when prices exclude it.
 */
export function orderMoney(lines: LineMoney[], shippingMinor: number, discountMinor: number, pricesIncludeTax: boolean): OrderMoney {
  const subtotalMinor = lines.reduce((s, l) => s + l.totalMinor, 0);
  const lineTax = lines.reduce((s, l) => s + l.taxMinor, 0);
  const discount = Math.min(discountMinor, subtotalMinor);
  const taxMinor = discount && subtotalMinor ? Number(roundDiv(BigInt(lineTax) * BigInt(subtotalMinor - discount), BigInt(subtotalMinor))) : lineTax;
  return {
    subtotalMinor,
    shippingMinor,
    taxMinor,
    discountMinor: discount,
    totalMinor: subtotalMinor - discount + (pricesIncludeTax ? 0 : taxMinor) + shippingMinor,
  };
}
