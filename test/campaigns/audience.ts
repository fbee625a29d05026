/** Shared steps of the campaigns tests: a business with customers, segments and campaigns. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { http, uniqueEmail } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, signupCompany, type Company } from '../support/fixtures.ts';
import { callTool, mcpClient } from '../support/mcp.ts';

export interface Business {
  company: Company;
  merchant: Client;
  h: Record<string, string>;
}

export async function openBusiness(name = 'Campaign Studio'): Promise<Business> {
  const company = await signupCompany(name);
  return { company, merchant: await mcpClient(company.apiKey), h: { 'x-company-id': company.companyId } };
}

export interface Person {
  id: string;
  name: string;
  email: string;
  phone?: string;
}

/** Customers registered through the storefront (members publishes them; campaigns projects them). */
export async function register(b: Business, count: number, options: { label?: string; phone?: boolean } = {}): Promise<Person[]> {
  const people: Person[] = [];
  for (let i = 0; i < count; i += 20) {
    const batch = Array.from({ length: Math.min(20, count - i) }, async (_, j) => {
      const name = `${options.label ?? 'Cleo'}${i + j}`;
      const email = uniqueEmail(name.toLowerCase());
      const phone = options.phone ? `+4915${String(Date.now() % 1e7).padStart(7, '0')}${String(i + j).padStart(3, '0')}`.slice(0, 16) : undefined;
      const res = await http('/v6/customer-portal/auth/register', { body: { name, email, ...(phone ? { phone } : {}) }, headers: b.h });
      if (res.status !== 201 && res.status !== 200) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
      return { id: res.body.data.member.id as string, name, email, phone };
    });
    people.push(...(await Promise.all(batch)));
  }
  return people;
}

/** A static segment of these people, once campaigns has them all (members' events arrive a moment later). */
export async function segmentOf(b: Business, people: Person[], name = `Static ${Date.now()}`) {
  const segment = await callTool(b.merchant, 'create_customer_segment', { name, customerIds: people.map((p) => p.id) });
  await eventually(async () => expect((await callTool(b.merchant, 'preview_segment', { segmentId: segment.id })).count).toBe(people.length), { tries: 300 });
  return segment;
}

export const emailConfig = { subject: 'Hello {{firstName}}', html: '<p>Hi {{firstName}}, spring is here.</p>' };

export function send(b: Business, campaignId: string, token = b.company.apiKey) {
  return http(`/v6/merchant/campaigns/${campaignId}/send`, { method: 'POST', headers: bearer(token) });
}

/** Waits for a campaign to reach a status (sending runs on the job queue). */
export function campaignReaches(b: Business, campaignId: string, status: string, tries = 600) {
  return eventually(
    async () => {
      const c = await callTool(b.merchant, 'get_campaign', { campaignId });
      expect(c.status).toBe(status);
      return c;
    },
    { tries, intervalMs: 100 },
  );
}
