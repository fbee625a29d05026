import { beforeAll, describe, expect, it } from 'vitest';
import { http, uniqueEmail } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, signInCustomer, signupCompany, type Company } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';

/** The one message log (kernel/outbox, delivered by subgraphs/messaging): every outgoing message of a company, listed with its status. */

let company: Company;
let other: Company;

beforeAll(async () => {
  await testServer();
  [company, other] = await Promise.all([signupCompany('Log Studio'), signupCompany('Other Log Studio')]);
});

const list = (apiKey: string, query = '') => http(`/v6/merchant/messaging/messages${query}`, { headers: bearer(apiKey) });

describe('list_messages', () => {
  it("shows a customer's sign-in code as sent by the platform, without its text", async () => {
    const customer = await signInCustomer(company.companyId);
    const res = await list(company.apiKey, `?to=${encodeURIComponent(customer.email)}`);
    expect(res.status).toBe(200);
    const [code] = res.body.data.items;
    expect(code).toMatchObject({
      channel: 'email',
      to: customer.email,
      subject: 'Your Log Studio sign-in code',
      text: null,
      status: 'sent',
      sender: { kind: 'system', id: null },
      provider: 'log',
      attempts: 1,
      error: null,
    });
    expect(code.providerMessageId).toBe(`log-${code.id}`);
    expect(new Date(code.sentAt).getTime()).toBeGreaterThanOrEqual(new Date(code.createdAt).getTime());
    expect(res.body.data.pagination).toMatchObject({ page: 1, total: 1 });
    // Another company sees none of it.
    expect((await list(other.apiKey, `?to=${encodeURIComponent(customer.email)}`)).body.data.items).toEqual([]);
  });

  it("shows a campaign's test send as the agent's, with its text, through MCP and REST alike; filters by channel, status and address", async () => {
    const merchant = await mcpClient(company.apiKey);
    const customer = await signInCustomer(company.companyId);
    const segment = await callTool(merchant, 'create_customer_segment', { name: 'Test list', customerIds: [customer.customerId] });
    const campaign = await callTool(merchant, 'create_campaign', {
      name: 'Log test',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: segment.id,
      channelConfig: { subject: 'Hello {{firstName}}', html: '<p>Hi <b>{{firstName}}</b></p>' },
    });
    const to = uniqueEmail('tester');
    await callTool(merchant, 'send_test_campaign', { campaignId: campaign.id, to: [to] });
    const sent = await eventually(
      async () => {
        const { items } = await callTool(merchant, 'list_messages', { to });
        expect(items).toHaveLength(1);
        expect(items[0].status).toBe('sent');
        return items[0];
      },
      { tries: 100, intervalMs: 100 },
    );
    expect(sent).toMatchObject({ channel: 'email', subject: '[Test] Hello Alex', text: expect.stringContaining('Hi Alex'), sender: { kind: 'agent' } });
    expect(sent.sender.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.campaignId).toBeNull();
    const rest = await list(company.apiKey, `?to=${encodeURIComponent(to)}`);
    expect(rest.body.data.items).toEqual([sent]);
    // Whatever sent it, development's outbox shows it.
    const outbox = await http(`/dev/outbox?to=${encodeURIComponent(to)}`);
    expect(outbox.body.data.items).toEqual([expect.objectContaining({ channel: 'email', subject: '[Test] Hello Alex', status: 'sent' })]);

    expect((await list(company.apiKey, `?to=${encodeURIComponent(to)}&channel=sms`)).body.data.items).toEqual([]);
    expect((await list(company.apiKey, `?to=${encodeURIComponent(to)}&status=failed`)).body.data.items).toEqual([]);
    expect((await list(company.apiKey, `?to=${encodeURIComponent(to)}&status=sent`)).body.data.items).toHaveLength(1);
    const all = await list(company.apiKey, '?limit=100');
    expect(all.body.data.items.map((m: { id: string }) => m.id)).toContain(sent.id);
    // Newest first.
    const times = all.body.data.items.map((m: { createdAt: string }) => new Date(m.createdAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('refuses a bad filter naming the field, and answers 401 without a key', async () => {
    const bad = await list(company.apiKey, '?campaignId=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'campaignId' } });
    expect(JSON.stringify(bad.body)).not.toContain('nope');
    const status = await list(company.apiKey, '?status=lost');
    expect(status.status).toBe(400);
    expect(JSON.stringify(status.body.error)).toContain('status');
    const merchant = await mcpClient(company.apiKey);
    expect(await toolError(merchant, 'list_messages', { customerId: '42' })).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'customerId' } });
    expect((await http('/v6/merchant/messaging/messages')).status).toBe(401);
  });
});
