import { describe, expect, it } from 'vitest';
import { http } from '../support/client.ts';
import { bearer } from '../support/fixtures.ts';
import { statementsOf } from '../support/sql.ts';
import { checkout, openShop, product } from './shop.ts';

describe('order list statements', () => {
  it('lists orders with their lines and payment in a number of statements independent of the number of orders', async () => {
    const measure = async (count: number) => {
      const shop = await openShop(`Counted Orders ${count}`);
      const mug = await product(shop, { name: 'Mug', price: '10', stock: 100 });
      const cup = await product(shop, { name: 'Cup', price: '5', stock: 100 });
      for (let i = 0; i < count; i++) {
        const placed = await checkout(shop, {
          items: [
            { productId: mug.id, quantity: 1 },
            { productId: cup.id, quantity: 2 },
          ],
          customer: { name: `Buyer ${i}`, email: `buyer${i}@example.test` },
          paymentMethodId: 'sandbox',
        });
        expect(placed.status).toBe(201);
      }
      const query = {
        query:
          '{ orders(limit: 50) { items { id status total { amount } lines { name quantity total { amount } } payment { status amount { amount } } } pagination { total } } }',
      };
      const list = () => http('/graphql', { body: query, headers: bearer(shop.company.apiKey) });
      const body = (await list()).body;
      expect(body.data.orders.items).toHaveLength(count);
      expect(body.data.orders.items[0].lines).toHaveLength(2);
      expect(body.data.orders.items[0].payment.status).toBe('requires_action');
      return (await statementsOf(list)).length;
    };
    const few = await measure(2);
    const many = await measure(12);
    expect(few).toBeGreaterThan(0);
    expect(many).toBe(few);
  });
});
