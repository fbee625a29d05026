import { describe, expect, it } from 'vitest';
import { callTool } from '../support/mcp.ts';
import { checkout, openShop, product } from './shop.ts';

describe('stock under concurrent checkouts', () => {
  it('sells the last unit exactly once when 50 orders race for it', async () => {
    const shop = await openShop('Race Shop');
    const last = await product(shop, { name: 'Last One', price: '99', stock: 1 });
    const other = await product(shop, { name: 'Plenty', price: '1', stock: 500 });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        // Lines in different orders: the rows are locked in one fixed order, so no deadlock.
        checkout(shop, {
          items:
            i % 2
              ? [
                  { productId: other.id, quantity: 1 },
                  { productId: last.id, quantity: 1 },
                ]
              : [
                  { productId: last.id, quantity: 1 },
                  { productId: other.id, quantity: 1 },
                ],
          paymentMethodId: 'manual',
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.error).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { available: 0 } });
    const orders = await callTool(shop.merchant, 'list_orders', { limit: 100 });
    expect(orders.pagination.total).toBe(1);
    expect(orders.items[0].number).toBe(1);
    // The refused orders reserved nothing of the other product either.
    const plenty = await callTool(shop.merchant, 'get_product', { productId: other.id });
    expect(plenty.variants[0].stock).toBe(499);
  });
});
