import { describe, expect, it } from 'vitest';
import { http } from '../support/client.ts';
import { bearer, signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient } from '../support/mcp.ts';
import { statementsOf } from '../support/sql.ts';

describe('catalog list statements', () => {
  it('lists products with variants, category and brand in a number of statements independent of the number of products', async () => {
    const measure = async (count: number) => {
      const company = await signupCompany(`Counted Shop ${count}`);
      const merchant = await mcpClient(company.apiKey);
      const category = await callTool(merchant, 'create_product_category', { name: 'Things' });
      const brand = await callTool(merchant, 'create_brand', { name: 'Maker' });
      const sale = await callTool(merchant, 'create_collection', { name: 'Sale' });
      for (let i = 0; i < count; i++) {
        await callTool(merchant, 'create_product', {
          name: `Product ${i}`,
          price: '10',
          status: 'active',
          categoryId: category.id,
          brandId: brand.id,
          collectionIds: [sale.id],
          variants: [
            { sku: `P${i}-A`, stock: 3 },
            { sku: `P${i}-B`, stock: 9 },
          ],
        });
      }
      const merchantQuery = {
        query: '{ products(limit: 50) { items { id price { amount } category { name } brand { name } collectionIds variants { id sku stock } } } }',
      };
      const shopQuery = {
        query: '{ shopProducts(limit: 50) { items { id price { amount } stockStatus category { name } brand { name } variants { id stockStatus } } } }',
      };
      const asMerchant = () => http('/graphql', { body: merchantQuery, headers: bearer(company.apiKey) });
      const asShop = () => http('/graphql', { body: shopQuery, headers: { 'x-company-id': company.companyId } });
      expect((await asMerchant()).body.data.products.items).toHaveLength(count);
      expect((await asShop()).body.data.shopProducts.items).toHaveLength(count);
      return { merchant: (await statementsOf(asMerchant)).length, shop: (await statementsOf(asShop)).length };
    };
    const few = await measure(2);
    const many = await measure(15);
    expect(few.merchant).toBeGreaterThan(0);
    expect(many).toEqual(few);
  });
});
