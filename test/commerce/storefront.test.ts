import { describe, expect, it } from 'vitest';
import { graphql, http } from '../support/client.ts';
import { signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient } from '../support/mcp.ts';

const P = '/v6/customer-portal';

describe('storefront catalog', () => {
  it('shows active products only, with availability instead of stock counts', async () => {
    const company = await signupCompany('Storefront Shop');
    const merchant = await mcpClient(company.apiKey);
    const h = { 'x-company-id': company.companyId };
    const category = await callTool(merchant, 'create_product_category', { name: 'Mugs' });
    const brand = await callTool(merchant, 'create_brand', { name: 'Clayworks' });
    const sale = await callTool(merchant, 'create_collection', { name: 'Sale' });
    const plenty = await callTool(merchant, 'create_product', {
      name: 'Plenty Mug',
      price: '10',
      stock: 50,
      status: 'active',
      categoryId: category.id,
      brandId: brand.id,
      description: 'Stoneware',
    });
    const few = await callTool(merchant, 'create_product', { name: 'Few Mug', price: '11', stock: 5, status: 'active', collectionIds: [sale.id] });
    await callTool(merchant, 'create_product', { name: 'Gone Mug', price: '12', stock: 0, trackInventory: true, status: 'active' });
    const ebook = await callTool(merchant, 'create_product', { name: 'E-book', price: '3', status: 'active' });
    await callTool(merchant, 'create_product', { name: 'Draft Mug', price: '9', stock: 3 });
    const archived = await callTool(merchant, 'create_product', { name: 'Old Mug', price: '9', status: 'active' });
    await callTool(merchant, 'update_product', { productId: archived.id, status: 'archived' });
    const tee = await callTool(merchant, 'create_product', {
      name: 'Tee',
      price: '20',
      status: 'active',
      variants: [
        { name: 'S', sku: 'TEE-S', stock: 0, trackInventory: true, options: [{ name: 'size', value: 'S' }] },
        { name: 'M', sku: 'TEE-M', stock: 2, options: [{ name: 'size', value: 'M' }] },
      ],
    });

    const list = await http(`${P}/shop/products`, { headers: h });
    expect(list.status).toBe(200);
    expect(list.body.success).toBe(true);
    expect(list.body.data.items.map((p: any) => p.name)).toEqual(['Tee', 'E-book', 'Gone Mug', 'Few Mug', 'Plenty Mug']);
    expect(list.body.data.pagination).toEqual({ page: 1, limit: 20, total: 5, totalPages: 1, hasNextPage: false });
    const byName = Object.fromEntries(list.body.data.items.map((p: any) => [p.name, p]));
    expect(byName['Plenty Mug']).toMatchObject({ id: plenty.id, slug: 'plenty-mug', price: { amount: '10.00', currency: 'EUR' }, stockStatus: 'IN_STOCK' });
    expect(byName['Few Mug'].stockStatus).toBe('LOW_STOCK');
    expect(byName['Gone Mug'].stockStatus).toBe('OUT_OF_STOCK');
    expect(byName['E-book'].stockStatus).toBe('IN_STOCK');
    expect(byName['Tee'].stockStatus).toBe('LOW_STOCK');
    // The count never leaves the shop.
    expect(JSON.stringify(list.body)).not.toMatch(/"stock"|trackInventory/);

    expect((await http(`${P}/shop/products?search=mug&limit=2`, { headers: h })).body.data).toMatchObject({
      items: [{ name: 'Gone Mug' }, { name: 'Few Mug' }],
      pagination: { total: 3, hasNextPage: true },
    });
    expect((await http(`${P}/shop/products?search=mug&page=2&limit=2`, { headers: h })).body.data.items.map((p: any) => p.name)).toEqual(['Plenty Mug']);
    expect((await http(`${P}/shop/products?categoryId=${category.id}`, { headers: h })).body.data.items.map((p: any) => p.id)).toEqual([plenty.id]);
    expect((await http(`${P}/shop/products?brandId=${brand.id}`, { headers: h })).body.data.items.map((p: any) => p.id)).toEqual([plenty.id]);
    expect((await http(`${P}/shop/products?collectionId=${sale.id}`, { headers: h })).body.data.items.map((p: any) => p.id)).toEqual([few.id]);
    expect((await http(`${P}/shop/products?limit=0`, { headers: h })).body.error).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'limit' } });
    expect((await http(`${P}/shop/products?categoryId=nope`, { headers: h })).status).toBe(400);

    const one = await http(`${P}/shop/products/tee`, { headers: h });
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: tee.id, name: 'Tee', price: { amount: '20.00', currency: 'EUR' }, stockStatus: 'LOW_STOCK' });
    expect(one.body.data.variants).toEqual([
      expect.objectContaining({ name: 'S', sku: 'TEE-S', stockStatus: 'OUT_OF_STOCK', isDefault: true, options: [{ name: 'size', value: 'S' }] }),
      expect.objectContaining({ name: 'M', sku: 'TEE-M', stockStatus: 'LOW_STOCK', isDefault: false }),
    ]);
    expect(JSON.stringify(one.body)).not.toMatch(/"stock"/);
    const plentyOne = await http(`${P}/shop/products/plenty-mug`, { headers: h });
    expect(plentyOne.body.data).toMatchObject({
      description: 'Stoneware',
      category: { id: category.id, name: 'Mugs' },
      brand: { id: brand.id, name: 'Clayworks' },
    });
    expect(plentyOne.body.data.variants).toHaveLength(1);
    expect(plentyOne.body.data.variants[0].stockStatus).toBe('IN_STOCK');
    expect(ebook.id).toBeTruthy();

    // Drafts and archived products are invisible.
    expect((await http(`${P}/shop/products/draft-mug`, { headers: h })).status).toBe(404);
    expect((await http(`${P}/shop/products/old-mug`, { headers: h })).status).toBe(404);
    expect((await http(`${P}/shop/products/no-such`, { headers: h })).body.error.code).toBe('NOT_FOUND');

    expect((await http(`${P}/shop/categories`, { headers: h })).body.data.items).toEqual([
      expect.objectContaining({ id: category.id, name: 'Mugs', slug: 'mugs', parentId: null }),
    ]);
    expect((await http(`${P}/shop/brands`, { headers: h })).body.data.items).toEqual([
      expect.objectContaining({ id: brand.id, name: 'Clayworks', slug: 'clayworks' }),
    ]);
    expect((await http(`${P}/shop/collections`, { headers: h })).body.data.items).toEqual([expect.objectContaining({ id: sale.id, name: 'Sale' })]);

    // The same through GraphQL.
    const gql = await graphql('query($slug: String!) { shopProduct(slug: $slug) { name stockStatus variants { sku stockStatus } } }', { slug: 'few-mug' }, h);
    expect(gql.body.data.shopProduct).toEqual({ name: 'Few Mug', stockStatus: 'LOW_STOCK', variants: [{ sku: null, stockStatus: 'LOW_STOCK' }] });
    const leak = await graphql('{ shopProducts { items { variants { stock } } } }', {}, h);
    expect(leak.body.errors?.[0].message).toMatch(/stock/);

    // Another tenant sees none of it; no tenant is refused.
    const other = await signupCompany('Other Storefront');
    const oh = { 'x-company-id': other.companyId };
    expect((await http(`${P}/shop/products/tee`, { headers: oh })).status).toBe(404);
    for (const path of ['products', 'categories', 'brands', 'collections'])
      expect((await http(`${P}/shop/${path}`, { headers: oh })).body.data.items, path).toEqual([]);
    expect((await http(`${P}/shop/products`)).status).toBeGreaterThanOrEqual(400);
  });
});
