import { describe, expect, it } from 'vitest';
import { bearer, signupCompany } from '../support/fixtures.ts';
import { graphql } from '../support/client.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';

const MISSING = '01900000-0000-7000-8000-000000000000';

async function shop(name: string) {
  const company = await signupCompany(name);
  return { company, merchant: await mcpClient(company.apiKey) };
}

describe('catalog through MCP', () => {
  it('builds a catalog: categories, brand, collection, a product with a default variant, one with variants', async () => {
    const { merchant } = await shop('Catalog Shop');
    const kitchen = await callTool(merchant, 'create_product_category', { name: 'Kitchen' });
    expect(kitchen).toMatchObject({ id: expect.any(String), name: 'Kitchen', slug: 'kitchen', parentId: null });
    const mugs = await callTool(merchant, 'create_product_category', { name: 'Mugs & Cups', parentId: kitchen.id });
    expect(mugs).toMatchObject({ slug: 'mugs-cups', parentId: kitchen.id });
    const brand = await callTool(merchant, 'create_brand', { name: 'Clayworks', logoUrl: 'https://example.test/logo.png' });
    const sale = await callTool(merchant, 'create_collection', { name: 'Summer sale' });

    const mug = await callTool(merchant, 'create_product', {
      name: 'Blue Mug',
      price: '12.50',
      compareAtPrice: '15',
      sku: 'MUG-BLUE',
      stock: 10,
      taxRate: '19',
      status: 'active',
      categoryId: mugs.id,
      brandId: brand.id,
      collectionIds: [sale.id],
      images: ['https://example.test/mug.jpg'],
      description: 'A blue mug',
    });
    expect(mug).toMatchObject({
      id: expect.any(String),
      slug: 'blue-mug',
      status: 'active',
      taxRate: '19.00',
      price: { amount: '12.50', currency: 'EUR' },
      category: { id: mugs.id, name: 'Mugs & Cups' },
      brand: { id: brand.id, name: 'Clayworks' },
      collectionIds: [sale.id],
      images: ['https://example.test/mug.jpg'],
    });
    expect(mug.variants).toEqual([
      expect.objectContaining({
        sku: 'MUG-BLUE',
        stock: 10,
        trackInventory: true,
        isDefault: true,
        options: [],
        price: { amount: '12.50', currency: 'EUR' },
        compareAtPrice: { amount: '15.00', currency: 'EUR' },
      }),
    ]);

    const tee = await callTool(merchant, 'create_product', {
      name: 'Tee',
      price: '20',
      variants: [
        { name: 'S', sku: 'TEE-S', stock: 3, options: [{ name: 'size', value: 'S' }] },
        { name: 'L', sku: 'TEE-L', price: '22', stock: 0, options: [{ name: 'size', value: 'L' }] },
      ],
    });
    expect(tee.status).toBe('draft');
    expect(tee.variants.map((v: any) => [v.sku, v.price.amount, v.stock, v.isDefault, v.options])).toEqual([
      ['TEE-S', '20.00', 3, true, [{ name: 'size', value: 'S' }]],
      ['TEE-L', '22.00', 0, false, [{ name: 'size', value: 'L' }]],
    ]);
    // Without stock, inventory is not tracked.
    const ebook = await callTool(merchant, 'create_product', { name: 'E-book', price: '5' });
    expect(ebook.variants[0]).toMatchObject({ trackInventory: false, stock: 0 });

    const got = await callTool(merchant, 'get_product', { productId: mug.id });
    expect(got.variants[0].stock).toBe(10);
    const updated = await callTool(merchant, 'update_product', { productId: mug.id, price: '13', name: 'Big Blue Mug', status: 'archived', categoryId: null });
    expect(updated).toMatchObject({ name: 'Big Blue Mug', slug: 'blue-mug', status: 'archived', price: { amount: '13.00' }, category: null });

    const listed = await callTool(merchant, 'list_products');
    expect(listed.items.map((p: any) => p.name)).toEqual(['E-book', 'Tee', 'Big Blue Mug']);
    expect((await callTool(merchant, 'list_products', { status: 'draft' })).items.map((p: any) => p.name)).toEqual(['E-book', 'Tee']);
    expect((await callTool(merchant, 'list_products', { search: 'blue' })).items.map((p: any) => p.id)).toEqual([mug.id]);
    expect((await callTool(merchant, 'list_products', { collectionId: sale.id })).items.map((p: any) => p.id)).toEqual([mug.id]);
    const second = await callTool(merchant, 'list_products', { limit: 1, offset: 1 });
    expect(second.items.map((p: any) => p.name)).toEqual(['Tee']);
    expect(second.pagination).toMatchObject({ page: 2, limit: 1, total: 3, hasNextPage: true });

    // Collections: add (twice is once), remove.
    await callTool(merchant, 'add_products_to_collection', { collectionId: sale.id, productIds: [tee.id, tee.id, mug.id] });
    expect((await callTool(merchant, 'list_products', { collectionId: sale.id })).items).toHaveLength(2);
    await callTool(merchant, 'remove_products_from_collection', { collectionId: sale.id, productIds: [mug.id] });
    expect((await callTool(merchant, 'list_products', { collectionId: sale.id })).items.map((p: any) => p.id)).toEqual([tee.id]);
    expect(await callTool(merchant, 'update_collection', { collectionId: sale.id, name: 'Autumn sale' })).toMatchObject({
      name: 'Autumn sale',
      slug: 'summer-sale',
    });
    expect((await callTool(merchant, 'list_collections')).items.map((c: any) => c.name)).toEqual(['Autumn sale']);
    expect(await callTool(merchant, 'update_brand', { brandId: brand.id, description: 'Hand made' })).toMatchObject({
      name: 'Clayworks',
      description: 'Hand made',
    });
    expect((await callTool(merchant, 'list_brands')).items.map((b: any) => b.name)).toEqual(['Clayworks']);

    // Categories: list, filter by parent, update, delete only when empty.
    expect((await callTool(merchant, 'list_product_categories')).items.map((c: any) => c.name)).toEqual(['Kitchen', 'Mugs & Cups']);
    expect((await callTool(merchant, 'list_product_categories', { parentId: kitchen.id })).items.map((c: any) => c.id)).toEqual([mugs.id]);
    const busy = await toolError(merchant, 'delete_product_category', { categoryId: kitchen.id });
    expect(busy).toMatchObject({ code: 'CONFLICT', details: { field: 'categoryId', subcategories: 1 } });
    await callTool(merchant, 'update_product', { productId: tee.id, categoryId: mugs.id });
    expect((await toolError(merchant, 'delete_product_category', { categoryId: mugs.id })).details).toMatchObject({ products: 1 });
    await callTool(merchant, 'update_product', { productId: tee.id, categoryId: null });
    expect(await callTool(merchant, 'update_product_category', { categoryId: mugs.id, name: 'Mugs', slug: 'mugs', parentId: null })).toMatchObject({
      name: 'Mugs',
      slug: 'mugs',
      parentId: null,
    });
    expect((await toolError(merchant, 'update_product_category', { categoryId: kitchen.id, parentId: kitchen.id })).details.field).toBe('parentId');
    expect(await callTool(merchant, 'delete_product_category', { categoryId: mugs.id })).toMatchObject({ id: mugs.id });
    expect((await callTool(merchant, 'list_product_categories')).items.map((c: any) => c.name)).toEqual(['Kitchen']);
  });

  it('changes, adds and removes variants through update_product; the next variant becomes the default', async () => {
    const { merchant } = await shop('Variant Shop');
    const tee = await callTool(merchant, 'create_product', {
      name: 'Tee',
      price: '20',
      status: 'active',
      variants: [
        { name: 'S', sku: 'TEE-S', stock: 3, options: [{ name: 'size', value: 'S' }] },
        { name: 'M', sku: 'TEE-M', stock: 2, options: [{ name: 'size', value: 'M' }] },
      ],
    });
    const [s, m] = tee.variants;
    const changed = await callTool(merchant, 'update_product', {
      productId: tee.id,
      variants: [
        { id: m.id, price: '22', compareAtPrice: '25', sku: 'TEE-M2' },
        { name: 'L', sku: 'TEE-L', price: '24', stock: 4, options: [{ name: 'size', value: 'L' }] },
      ],
    });
    expect(changed.variants.map((v: any) => [v.name, v.sku, v.price.amount, v.compareAtPrice?.amount ?? null, v.stock, v.isDefault])).toEqual([
      ['S', 'TEE-S', '20.00', null, 3, true],
      ['M', 'TEE-M2', '22.00', '25.00', 2, false],
      ['L', 'TEE-L', '24.00', null, 4, false],
    ]);
    // Removing the default makes the next one the default (and the product's price).
    const removed = await callTool(merchant, 'update_product', { productId: tee.id, removeVariantIds: [s.id] });
    expect(removed.variants.map((v: any) => [v.name, v.isDefault])).toEqual([
      ['M', true],
      ['L', false],
    ]);
    expect(removed.price.amount).toBe('22.00');
    // Errors name the field; nothing is half-written.
    const other = await callTool(merchant, 'create_product', { name: 'Cap', price: '9' });
    expect((await toolError(merchant, 'update_product', { productId: tee.id, variants: [{ id: other.variants[0].id, price: '1' }] })).details.field).toBe(
      'variants[0].id',
    );
    expect((await toolError(merchant, 'update_product', { productId: tee.id, variants: [{ id: m.id, stock: 9 }] })).details.field).toBe('variants[0].stock');
    expect((await toolError(merchant, 'update_product', { productId: tee.id, variants: [{ name: 'XL' }] })).details.field).toBe('variants[0].price');
    expect((await toolError(merchant, 'update_product', { productId: tee.id, variants: [{ id: m.id, compareAtPrice: '1' }] })).details.field).toBe(
      'variants[0].compareAtPrice',
    );
    expect((await toolError(merchant, 'update_product', { productId: tee.id, removeVariantIds: [other.variants[0].id] })).details.field).toBe(
      'removeVariantIds[0]',
    );
    const last = await toolError(merchant, 'update_product', { productId: tee.id, name: 'Renamed', removeVariantIds: removed.variants.map((v: any) => v.id) });
    expect(last.details.field).toBe('removeVariantIds');
    expect((await toolError(merchant, 'update_product', { productId: tee.id, variants: [{ name: 'Dup', price: '5', sku: 'TEE-L' }] })).details.field).toMatch(
      /sku/,
    );
    const after = await callTool(merchant, 'get_product', { productId: tee.id });
    expect(after.name).toBe('Tee');
    expect(after.variants.map((v: any) => v.name)).toEqual(['M', 'L']);
    expect((await toolError(merchant, 'create_product', { name: 'Bad', price: '1', variants: [{ id: m.id }] })).details.field).toBe('variants[0].id');
  });

  it('refuses bad input naming the field', async () => {
    const { merchant } = await shop('Strict Shop');
    const base = { name: 'Thing', price: '10' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, name: '  ' }, 'name'],
      [{ ...base, price: '-1' }, 'price'],
      [{ ...base, price: '1.001' }, 'price'],
      [{ ...base, compareAtPrice: '5' }, 'compareAtPrice'],
      [{ ...base, stock: -1 }, 'stock'],
      [{ ...base, stock: 2_000_000 }, 'stock'],
      [{ ...base, taxRate: '101' }, 'taxRate'],
      [{ ...base, taxRate: '7.555' }, 'taxRate'],
      [{ ...base, slug: 'Not A Slug!' }, 'slug'],
      [{ ...base, sku: 'has space' }, 'sku'],
      [{ ...base, images: ['ftp://x'] }, 'images[0]'],
      [{ ...base, categoryId: MISSING }, 'categoryId'],
      [{ ...base, brandId: MISSING }, 'brandId'],
      [{ ...base, collectionIds: [MISSING] }, 'collectionIds'],
      [{ name: 'No price' }, 'price'],
      [{ name: 'V', variants: [{ sku: 'A' }] }, 'variants[0].price'],
      [{ ...base, variants: [{ sku: 'A' }, { sku: 'a' }] }, 'variants[1].sku'],
      [{ ...base, variants: [{ stock: -3 }] }, 'variants[0].stock'],
      [
        {
          ...base,
          variants: [
            {
              options: [
                { name: 'size', value: 'S' },
                { name: 'size', value: 'M' },
              ],
            },
          ],
        },
        'variants[0].options[1].name',
      ],
    ];
    for (const [args, field] of cases) {
      const error = await toolError(merchant, 'create_product', args);
      expect(error.code, JSON.stringify(args)).toBe('BAD_USER_INPUT');
      expect(error.details?.field, JSON.stringify(args)).toBe(field);
    }
    expect((await toolError(merchant, 'create_product', { ...base, status: 'sold' })).code).not.toBe('INTERNAL');
    expect((await toolError(merchant, 'create_product_category', { name: '' })).details.field).toBe('name');
    expect((await toolError(merchant, 'create_product_category', { name: 'X', parentId: MISSING })).details.field).toBe('parentId');
    expect((await toolError(merchant, 'create_brand', { name: 'X', logoUrl: 'nope' })).details.field).toBe('logoUrl');
    expect((await toolError(merchant, 'add_products_to_collection', { collectionId: MISSING, productIds: [] })).details.field).toBe('productIds');
    expect((await toolError(merchant, 'list_products', { limit: 500 })).details.field).toBe('limit');
    expect((await toolError(merchant, 'list_products', { offset: -1 })).details.field).toBe('offset');
    expect((await callTool(merchant, 'list_products')).items).toEqual([]);
  });

  it('keeps slugs and SKUs unique per company (409 naming the field), free across companies', async () => {
    const { merchant } = await shop('Unique Shop');
    const { merchant: other } = await shop('Other Unique Shop');
    const first = await callTool(merchant, 'create_product', { name: 'Mug', price: '1', sku: 'SKU-1' });
    expect(first.slug).toBe('mug');
    // A generated slug steps aside; an explicit one taken is 409.
    expect((await callTool(merchant, 'create_product', { name: 'Mug', price: '1' })).slug).toBe('mug-2');
    expect(await toolError(merchant, 'create_product', { name: 'Cup', price: '1', slug: 'mug' })).toMatchObject({
      code: 'CONFLICT',
      details: { field: 'slug' },
    });
    expect(await toolError(merchant, 'create_product', { name: 'Cup', price: '1', sku: 'sku-1' })).toMatchObject({
      code: 'CONFLICT',
      details: { field: 'sku' },
    });
    expect(await toolError(merchant, 'create_product', { name: 'Cup', price: '1', variants: [{ sku: 'SKU-1' }] })).toMatchObject({
      code: 'CONFLICT',
      details: { field: 'sku' },
    });
    const cup = await callTool(merchant, 'create_product', { name: 'Cup', price: '1', sku: 'SKU-2' });
    expect(await toolError(merchant, 'update_product', { productId: cup.id, sku: 'SKU-1' })).toMatchObject({ code: 'CONFLICT', details: { field: 'sku' } });
    expect(await toolError(merchant, 'update_product', { productId: cup.id, slug: 'mug' })).toMatchObject({ code: 'CONFLICT', details: { field: 'slug' } });
    await callTool(merchant, 'create_brand', { name: 'Acme' });
    expect(await toolError(merchant, 'create_brand', { name: 'Acme 2', slug: 'acme' })).toMatchObject({ code: 'CONFLICT', details: { field: 'slug' } });
    await callTool(merchant, 'create_product_category', { name: 'Cups' });
    expect(await toolError(merchant, 'create_product_category', { name: 'Cups!', slug: 'cups' })).toMatchObject({
      code: 'CONFLICT',
      details: { field: 'slug' },
    });
    await callTool(merchant, 'create_collection', { name: 'New' });
    expect(await toolError(merchant, 'create_collection', { name: 'Neu', slug: 'new' })).toMatchObject({ code: 'CONFLICT', details: { field: 'slug' } });
    // The other company uses the same slug and SKU freely.
    expect(await callTool(other, 'create_product', { name: 'Mug', price: '1', sku: 'SKU-1' })).toMatchObject({ slug: 'mug' });
    // Concurrent creates with one explicit slug: exactly one wins, the other is 409 slug.
    const race = await Promise.all(
      [1, 2, 3].map((i) => merchant.callTool({ name: 'create_product', arguments: { name: `Race ${i}`, price: '1', slug: 'race' } })),
    );
    expect(race.filter((r) => !r.isError)).toHaveLength(1);
    for (const r of race.filter((r) => r.isError))
      expect(JSON.parse((r.content as any)[0].text).error).toMatchObject({ code: 'CONFLICT', details: { field: 'slug' } });
  });

  it("never shows or changes another company's catalog (404)", async () => {
    const { merchant } = await shop('Owner Shop');
    const { merchant: thief } = await shop('Thief Shop');
    const category = await callTool(merchant, 'create_product_category', { name: 'Mine' });
    const brand = await callTool(merchant, 'create_brand', { name: 'Mine' });
    const collection = await callTool(merchant, 'create_collection', { name: 'Mine' });
    const product = await callTool(merchant, 'create_product', { name: 'Mine', price: '1', stock: 4 });
    const variantId = product.variants[0].id;
    expect((await toolError(thief, 'get_product', { productId: product.id })).code).toBe('NOT_FOUND');
    expect((await toolError(thief, 'update_product', { productId: product.id, name: 'Stolen' })).code).toBe('NOT_FOUND');
    expect((await toolError(thief, 'adjust_stock', { variantId, delta: -4, reason: 'theft' })).code).toBe('NOT_FOUND');
    expect((await toolError(thief, 'update_product_category', { categoryId: category.id, name: 'X' })).code).toBe('NOT_FOUND');
    expect((await toolError(thief, 'delete_product_category', { categoryId: category.id })).code).toBe('NOT_FOUND');
    expect((await toolError(thief, 'update_brand', { brandId: brand.id, name: 'X' })).code).toBe('NOT_FOUND');
    expect((await toolError(thief, 'update_collection', { collectionId: collection.id, name: 'X' })).code).toBe('NOT_FOUND');
    expect((await toolError(thief, 'add_products_to_collection', { collectionId: collection.id, productIds: [product.id] })).code).toBe('NOT_FOUND');
    // Its own collection cannot take the other company's product; its product cannot use the other's category.
    const own = await callTool(thief, 'create_collection', { name: 'Loot' });
    expect((await toolError(thief, 'add_products_to_collection', { collectionId: own.id, productIds: [product.id] })).details.field).toBe('productIds');
    expect((await toolError(thief, 'create_product', { name: 'X', price: '1', categoryId: category.id })).details.field).toBe('categoryId');
    for (const tool of ['list_products', 'list_product_categories', 'list_brands']) expect((await callTool(thief, tool)).items, tool).toEqual([]);
    expect((await callTool(thief, 'list_collections')).items.map((c: any) => c.id)).toEqual([own.id]);
    expect((await callTool(merchant, 'get_product', { productId: product.id })).variants[0].stock).toBe(4);
  });

  it('serves the merchant GraphQL API and refuses it to the storefront', async () => {
    const { company, merchant } = await shop('GraphQL Shop');
    await callTool(merchant, 'create_product', { name: 'Draft thing', price: '3.5' });
    const query = '{ products { items { name status price { amount currency } variants { stock } } pagination { total } } }';
    const ok = await graphql(query, {}, bearer(company.apiKey));
    expect(ok.body.data.products).toEqual({
      items: [{ name: 'Draft thing', status: 'draft', price: { amount: '3.50', currency: 'EUR' }, variants: [{ stock: 0 }] }],
      pagination: { total: 1 },
    });
    const anonymous = await graphql(query, {}, { 'x-company-id': company.companyId });
    expect(anonymous.body.errors![0].extensions?.code).toMatch(/UNAUTHENTICATED|FORBIDDEN/);
    const bad = await graphql('mutation { createProduct(input: { name: "X", price: "1", stock: -2 }) { id } }', {}, bearer(company.apiKey));
    expect(bad.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'stock' });
  });
});
