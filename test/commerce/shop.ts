/** Shared steps of the commerce tests: a shop (company + MCP client), its products, orders through REST. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { http } from '../support/client.ts';
import { signupCompany, type Company } from '../support/fixtures.ts';
import { callTool, mcpClient } from '../support/mcp.ts';

export const P = '/v6/customer-portal';

export interface Shop {
  company: Company;
  merchant: Client;
  /** Storefront headers (the tenant). */
  h: Record<string, string>;
}

export async function openShop(name = 'Corner Shop'): Promise<Shop> {
  const company = await signupCompany(name);
  return { company, merchant: await mcpClient(company.apiKey), h: { 'x-company-id': company.companyId } };
}

/** An active product without options, through the catalog's tool; its default variant's id too. */
export async function product(shop: Shop, fields: { name: string; price: string; stock?: number; taxRate?: string; trackInventory?: boolean }) {
  const created = await callTool(shop.merchant, 'create_product', { status: 'active', trackInventory: fields.stock !== undefined, ...fields });
  return { id: created.id as string, variantId: created.variants[0].id as string, slug: created.slug as string };
}

/** POST /shop/orders as a guest (or with extra headers). */
export function checkout(shop: Shop, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return http(`${P}/shop/orders`, {
    body: { customer: { name: 'Gina Guest', email: `gina.${Date.now()}.${Math.random().toString(36).slice(2)}@example.test` }, ...body },
    headers: { ...shop.h, ...headers },
  });
}

export function paymentStatus(shop: Shop, orderId: string, accessToken?: string, headers: Record<string, string> = {}) {
  const q = accessToken ? `?accessToken=${encodeURIComponent(accessToken)}` : '';
  return http(`${P}/shop/orders/${orderId}/payment-status${q}`, { headers: { ...shop.h, ...headers } });
}
