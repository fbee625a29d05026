import { describe, expect, it } from 'vitest';
import { bearer, signupCompany } from '../support/fixtures.ts';
import { graphql } from '../support/client.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';

describe('stock adjustments', () => {
  it('adds and takes off with a reason, keeps the history, never below zero', async () => {
    const company = await signupCompany('Stock Shop');
    const merchant = await mcpClient(company.apiKey);
    const product = await callTool(merchant, 'create_product', { name: 'Mug', price: '5', stock: 3 });
    const variantId = product.variants[0].id;
    expect(await callTool(merchant, 'adjust_stock', { variantId, delta: 7, reason: 'delivery' })).toMatchObject({
      id: expect.any(String),
      variantId,
      delta: 7,
      stock: 10,
      reason: 'delivery',
    });
    expect(await callTool(merchant, 'adjust_stock', { variantId, delta: -4, reason: 'damaged' })).toMatchObject({ delta: -4, stock: 6 });
    const refused = await toolError(merchant, 'adjust_stock', { variantId, delta: -7, reason: 'too many' });
    expect(refused).toMatchObject({ code: 'CONFLICT', details: { field: 'delta', available: 6 } });
    expect((await callTool(merchant, 'get_product', { productId: product.id })).variants[0].stock).toBe(6);
    for (const [args, field] of [
      [{ variantId, delta: 0, reason: 'x' }, 'delta'],
      [{ variantId, delta: 5, reason: ' ' }, 'reason'],
      [{ variantId, delta: 2_000_000, reason: 'x' }, 'delta'],
      [{ variantId: 'nope', delta: 1, reason: 'x' }, 'variantId'],
    ] as const)
      expect((await toolError(merchant, 'adjust_stock', args)).details?.field).toBe(field);
    expect((await toolError(merchant, 'adjust_stock', { variantId: '01900000-0000-7000-8000-000000000000', delta: 1, reason: 'x' })).code).toBe('NOT_FOUND');

    const history = await graphql(
      'query($id: ID!) { stockAdjustments(variantId: $id) { items { delta stock reason } pagination { total } } }',
      { id: variantId },
      bearer(company.apiKey),
    );
    expect(history.body.data.stockAdjustments).toEqual({
      items: [
        { delta: -4, stock: 6, reason: 'damaged' },
        { delta: 7, stock: 10, reason: 'delivery' },
      ],
      pagination: { total: 2 },
    });
  });

  it('applies concurrent adjustments exactly, and stops exactly at zero', async () => {
    const company = await signupCompany('Busy Stock Shop');
    const merchant = await mcpClient(company.apiKey);
    const product = await callTool(merchant, 'create_product', { name: 'Mug', price: '5', stock: 10 });
    const variantId = product.variants[0].id;
    // 20 concurrent +1s: all apply.
    const adds = await Promise.all(
      Array.from({ length: 20 }, () => merchant.callTool({ name: 'adjust_stock', arguments: { variantId, delta: 1, reason: 'count' } })),
    );
    expect(adds.filter((r) => r.isError)).toEqual([]);
    expect((await callTool(merchant, 'get_product', { productId: product.id })).variants[0].stock).toBe(30);
    // 40 concurrent -1s on 30: exactly 30 apply, 10 are refused, stock is 0.
    const takes = await Promise.all(
      Array.from({ length: 40 }, () => merchant.callTool({ name: 'adjust_stock', arguments: { variantId, delta: -1, reason: 'sold offline' } })),
    );
    expect(takes.filter((r) => !r.isError)).toHaveLength(30);
    for (const r of takes.filter((r) => r.isError)) expect(JSON.parse((r.content as any)[0].text).error.code).toBe('CONFLICT');
    expect((await callTool(merchant, 'get_product', { productId: product.id })).variants[0].stock).toBe(0);
    const history = await graphql(
      'query($id: ID!) { stockAdjustments(variantId: $id, limit: 100) { items { stock } pagination { total } } }',
      { id: variantId },
      bearer(company.apiKey),
    );
    expect(history.body.data.stockAdjustments.pagination.total).toBe(50);
    // Every movement's "stock after" is distinct: each saw the others' effect.
    const afters = history.body.data.stockAdjustments.items.map((i: any) => i.stock);
    expect(new Set(afters.slice(0, 30)).size).toBe(30);
  });
});
