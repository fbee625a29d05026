import { beforeAll, describe, expect, it } from 'vitest';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import { openSecret } from '../../subgraphs/kernel/secrets.ts';
import { http } from '../support/client.ts';
import { bearer, signupCompany, upgradeToStarter, type Company } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';

/** A company's own WhatsApp and SMS accounts (subgraphs/messaging): connected with sealed tokens, never shown. */

const TOKEN = 'EAAGm0PX4ZCpsBA-whatsapp-token-Zx9';
const AUTH_TOKEN = 'f3c1a9d2e4b5a6c7d8e9f0a1b2c3d4e5';
const SID = `AC${'0123456789abcdef'.repeat(2)}`;
let company: Company;
const phoneNumberId = () => String(100_000_000_000 + Math.floor(Math.random() * 1e9));

beforeAll(async () => {
  company = await signupCompany('Channels Studio');
});

describe('messaging channels', () => {
  it('are a feature of the Starter plan: connecting on the free plan is 402 naming it', async () => {
    const refused = await http('/v6/merchant/messaging/channels/whatsapp', {
      method: 'PUT',
      body: { phoneNumberId: phoneNumberId(), accessToken: TOKEN },
      headers: bearer(company.apiKey),
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: 'PLAN_LIMIT_REACHED', details: { limit: 'whatsapp', plan: 'free', upgradeTo: 'starter' } });
    const channels = await http('/v6/merchant/messaging/channels', { headers: bearer(company.apiKey) });
    expect(channels.body.data.items).toEqual([
      { channel: 'email', connected: true, phoneNumberId: null, accountSid: null, fromNumber: null, connectedAt: null, updatedAt: null },
      { channel: 'sms', connected: false, phoneNumberId: null, accountSid: null, fromNumber: null, connectedAt: null, updatedAt: null },
      { channel: 'whatsapp', connected: false, phoneNumberId: null, accountSid: null, fromNumber: null, connectedAt: null, updatedAt: null },
    ]);
  });

  it('connect on Starter with the token sealed: no answer, no audit entry and no column holds it', async () => {
    await upgradeToStarter(company.apiKey);
    const merchant = await mcpClient(company.apiKey);
    const id = phoneNumberId();
    const connected = await callTool(merchant, 'connect_whatsapp', { phoneNumberId: id, accessToken: TOKEN });
    expect(connected).toMatchObject({ channel: 'whatsapp', connected: true, phoneNumberId: id, connectedAt: expect.any(String) });
    const sms = await http('/v6/merchant/messaging/channels/sms', {
      method: 'PUT',
      body: { accountSid: SID, authToken: AUTH_TOKEN, fromNumber: '+49 151 2345 6789' },
      headers: bearer(company.apiKey),
    });
    expect(sms.status).toBe(200);
    expect(sms.body.data).toMatchObject({ channel: 'sms', connected: true, accountSid: SID, fromNumber: '+4915123456789' });
    const channels = await callTool(merchant, 'get_messaging_channels');
    expect(channels.items.map((c: any) => [c.channel, c.connected])).toEqual([
      ['email', true],
      ['sms', true],
      ['whatsapp', true],
    ]);
    const audit = await callTool(merchant, 'list_audit_log', { limit: 50 });
    const said = JSON.stringify([connected, sms.body, channels, audit]);
    expect(said).not.toContain(TOKEN);
    expect(said).not.toContain(AUTH_TOKEN);
    expect(audit.items.find((e: any) => e.operation === 'connectWhatsapp')?.arguments).toMatchObject({
      input: { accessToken: '[redacted]', phoneNumberId: id },
    });
    // At rest: sealed, and it opens to what was given.
    const { app, config } = await testServer();
    const ctx = RequestContext.system(app.platform.runtime, company.companyId);
    const rows = await ctx.all(ctx.query.selectFrom('messaging.channel_connection').select(['channel', 'sealedSecret']).orderBy('channel'));
    expect(rows.map((r) => r.sealedSecret).join()).not.toMatch(new RegExp(`${TOKEN}|${AUTH_TOKEN}`));
    expect(rows.map((r) => [r.channel, openSecret(config, r.sealedSecret)])).toEqual([
      ['sms', AUTH_TOKEN],
      ['whatsapp', TOKEN],
    ]);
  });

  it('connecting again replaces the account; a number is one company’s', async () => {
    const merchant = await mcpClient(company.apiKey);
    const first = phoneNumberId();
    await callTool(merchant, 'connect_whatsapp', { phoneNumberId: first, accessToken: TOKEN });
    const second = phoneNumberId();
    const replaced = await callTool(merchant, 'connect_whatsapp', { phoneNumberId: second, accessToken: `${TOKEN}-2` });
    expect(replaced.phoneNumberId).toBe(second);
    const whatsapp = (await callTool(merchant, 'get_messaging_channels')).items.find((c: any) => c.channel === 'whatsapp');
    expect(whatsapp.phoneNumberId).toBe(second);
    const other = await signupCompany('Channels Rival');
    await upgradeToStarter(other.apiKey);
    const taken = await toolError(await mcpClient(other.apiKey), 'connect_whatsapp', { phoneNumberId: second, accessToken: TOKEN });
    expect(taken).toMatchObject({ code: 'CONFLICT', details: { field: 'phoneNumberId' } });
    expect(taken.message).not.toContain(company.companyId);
  });

  it('refuses bad accounts naming the field, and a key without the messaging scope', async () => {
    const merchant = await mcpClient(company.apiKey);
    const cases: [string, Record<string, unknown>, string][] = [
      ['connect_whatsapp', { phoneNumberId: 'abc', accessToken: TOKEN }, 'phoneNumberId'],
      ['connect_whatsapp', { phoneNumberId: phoneNumberId(), accessToken: ' ' }, 'accessToken'],
      ['connect_sms', { accountSid: 'SK123', authToken: AUTH_TOKEN, fromNumber: '+4915123456789' }, 'accountSid'],
      ['connect_sms', { accountSid: SID, authToken: AUTH_TOKEN, fromNumber: 'call me' }, 'fromNumber'],
    ];
    for (const [tool, args, field] of cases) {
      const error = await toolError(merchant, tool, args);
      expect({ tool, field: error.details?.field, code: error.code }).toEqual({ tool, field, code: 'BAD_USER_INPUT' });
      expect(JSON.stringify(error)).not.toContain(TOKEN);
    }
    const { key } = await callTool(merchant, 'create_api_key', { name: 'Campaigns only', scopes: ['campaigns:read'] });
    const refused = await http('/v6/merchant/messaging/channels', { headers: bearer(key) });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'messaging:read' } });
    expect((await http('/v6/merchant/messaging/channels')).status).toBe(401);
  });
});
