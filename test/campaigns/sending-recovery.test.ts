import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../support/database.ts';
import { eventually } from '../support/eventually.ts';
import { startFakeTwilio, startFakeWhatsapp, type FakeProvider } from '../support/fake-providers.ts';
import { upgradeToStarter } from '../support/fixtures.ts';
import { freePort, recordingSmtp } from '../support/local-servers.ts';

const root = join(import.meta.dirname, '..', '..');
/** Phone numbers unique to this run (a company's customers have distinct ones). */
const PHONE_BASE = String(Date.now() % 1_000_000).padStart(6, '0');
let phones = 0;

const TWILIO = { accountSid: `AC${'1'.repeat(32)}`, authToken: 'twilio-auth-token', fromNumber: '+4930123456' };
const WHATSAPP = { phoneNumberId: String(Date.now()).slice(-12), accessToken: 'whatsapp-access-token' };

/**
 * Campaign sending through messaging's providers and across a crash: the server runs as its own
 * process (so it can be killed) with email on a real SMTP server and SMS and WhatsApp on local
 * fakes of Twilio's Messages API and the Cloud API (test/support/fake-providers.ts), connected
 * with the company's own accounts.
 */
describe('campaign sending through SMTP, Twilio and the Cloud API, across a crash', () => {
  const mails: string[] = [];
  let smtp: { url: string; close: () => Promise<void> };
  let twilio: FakeProvider;
  let whatsapp: FakeProvider;
  /** The SMS requests Twilio took, as form parameters. */
  const texts = () => twilio.requests.map((r) => new URLSearchParams(r.body));
  let env: NodeJS.ProcessEnv;
  const database: { url?: string; drop?: () => Promise<void> } = {};
  let port = 0;
  let dataDir = '';
  let server: { child: ChildProcess; exited: Promise<unknown> } | undefined;

  beforeAll(async () => {
    smtp = await recordingSmtp((data) => mails.push(data) > 0);
    twilio = await startFakeTwilio();
    whatsapp = await startFakeWhatsapp();
    const base = inject('databaseUrl');
    if (base) Object.assign(database, await createDatabase(base, 'campaigns'));
    port = await freePort();
    dataDir = mkdtempSync(join(tmpdir(), 'platform-campaigns-'));
    env = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      NODE_ENV: 'development',
      OUTBOX_LOG: 'silent',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'studio@campaigns.example',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TWILIO_API_URL: twilio.url,
      WHATSAPP_GRAPH_URL: `${whatsapp.url}/v21.0`,
      CAMPAIGN_RATE_SMS: '40',
      // Hundreds of customers register from this one address within a minute, as an import would.
      STOREFRONT_REQUESTS_PER_MINUTE: '100000',
      JOB_EXPIRE_SECONDS: '3',
      JOB_SUPERVISE_SECONDS: '1',
    };
    delete env.DATABASE_URL;
    if (database.url) env.DATABASE_URL = database.url;
    await start();
    // The company, through the real signup: its code arrives on the SMTP server.
    const signup = await call('/v6/dev/signup', {
      body: { email: `owner.${Date.now()}@example.test`, organisationName: 'Mail Studio', industry: 'salon', country: 'DE' },
    });
    const code = await eventually(() => /\b(\d{6})\b/.exec(mails.at(-1) ?? '')![1], { tries: 200 });
    const verify = await call('/v6/dev/verify', { body: { requestId: signup.body.data.requestId, code } });
    company = verify.body.data;
    // SMS and WhatsApp are the Starter plan's: bought through the platform's checkout; then the
    // company connects its own accounts.
    await upgradeToStarter(company.apiKey, `http://127.0.0.1:${port}`);
    await tool('connect_sms', TWILIO);
    await tool('connect_whatsapp', WHATSAPP);
  }, 120_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await smtp.close();
    await twilio.close();
    await whatsapp.close();
    await database.drop?.();
  });

  async function start() {
    // Node itself with tsx's loader, so SIGKILL kills the server and not a wrapper.
    await client?.close().catch(() => undefined);
    client = undefined;
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'router/main.ts')], {
      cwd: root,
      env,
      stdio: process.env.CAMPAIGN_TEST_LOGS ? 'inherit' : 'ignore',
    });
    server = { child, exited: new Promise((r) => child.on('exit', r)) };
    await eventually(async () => expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200), { tries: 600, intervalMs: 100 });
  }

  const url = (path: string) => `http://127.0.0.1:${port}${path}`;
  async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const res = await fetch(url(path), {
      method: init.method ?? (init.body ? 'POST' : 'GET'),
      headers: { 'content-type': 'application/json', ...init.headers },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
  }

  let company: { companyId: string; apiKey: string };
  let client: Client | undefined;
  /** A tool call through a real MCP client (a new one after a restart). */
  const tool = async (name: string, args: Record<string, unknown>) => {
    if (!client) {
      client = new Client({ name: 'campaign-tests', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url('/mcp')), { requestInit: { headers: { Authorization: `Bearer ${company.apiKey}` } } }),
      );
    }
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name}: ${(result.content as any[])[0]?.text}`);
    return result.structuredContent as any;
  };
  const h = () => ({ 'x-company-id': company.companyId });
  const send = (id: string) => call(`/v6/merchant/campaigns/${id}/send`, { method: 'POST', headers: { authorization: `Bearer ${company.apiKey}` } });
  const reaches = (id: string, status: string, tries = 1200) =>
    eventually(
      async () => {
        const c = await tool('get_campaign', { campaignId: id });
        expect(c.status).toBe(status);
        return c;
      },
      { tries, intervalMs: 100 },
    );

  async function customers(count: number, phone: boolean) {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, count - i) }, async (_, j) => {
          const n = i + j;
          const res = await call('/v6/customer-portal/auth/register', {
            body: {
              name: `Rita${n}`,
              email: `rita${n}.${Date.now()}@example.test`,
              ...(phone ? { phone: `+491${PHONE_BASE}${String(phones++).padStart(4, '0')}` } : {}),
            },
            headers: h(),
          });
          expect(res.status).toBe(201);
          return res.body.data.member.id as string;
        }),
      );
      ids.push(...batch);
    }
    return ids;
  }

  async function segment(ids: string[], name: string) {
    const s = await tool('create_customer_segment', { name, customerIds: ids });
    await eventually(async () => expect((await tool('preview_segment', { segmentId: s.id })).count).toBe(ids.length), { tries: 600, intervalMs: 100 });
    return s;
  }

  it('email goes through SMTP with merge tags and RFC 8058 one-click unsubscribe; the link from the message unsubscribes', async () => {
    const ids = await customers(3, false);
    const s = await segment(ids, 'Mail list');
    const campaign = await tool('create_campaign', {
      name: 'Spring',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: s.id,
      channelConfig: {
        subject: 'Spring for {{firstName}}',
        html: '<p>Dear {{firstName}}, <a href="{{unsubscribeUrl}}">stop these</a></p>',
        fromName: 'Mail Studio',
        replyTo: 'desk@mail.example',
      },
    });
    const before = mails.length;
    expect((await send(campaign.id)).status).toBe(202);
    const done = await reaches(campaign.id, 'SENT');
    expect(done.deliveries).toMatchObject({ total: 3, sent: 3 });
    const received = mails.slice(before);
    expect(received).toHaveLength(3);
    // Headers unfolded (long ones are folded over lines).
    const rita0 = received.map((m) => m.replace(/\r\n[ \t]+/g, ' ')).find((m) => /Subject: Spring for Rita0\b/.test(m))!;
    expect(rita0).toBeDefined();
    expect(rita0).toMatch(/From: Mail Studio <studio@campaigns\.example>/);
    expect(rita0).toMatch(/Reply-To: desk@mail\.example/);
    expect(rita0).toMatch(new RegExp(`Message-ID: <${campaign.id}\\.[0-9a-f-]{36}@campaigns\\.example>`));
    expect(rita0).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const link = /List-Unsubscribe: <([^>]+)>/.exec(rita0)![1];
    expect(link.startsWith(url('/unsubscribe/'))).toBe(true);
    expect(
      received
        .find((m) => m.includes(link.slice(-20)) && /Rita0\b/.test(m))!
        .replace(/=\r\n/g, '')
        .replace(/=3D/g, '='),
    ).toContain(`href="${link}"`);

    // The mail client's one-click POST; the next campaign skips them.
    const one = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(one.status).toBe(200);
    const next = await tool('create_campaign', {
      name: 'Summer',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: s.id,
      channelConfig: { subject: 'Summer', html: '<p>Hi</p>' },
    });
    expect((await send(next.id)).status).toBe(202);
    expect((await reaches(next.id, 'SENT')).deliveries).toMatchObject({ total: 3, sent: 2, skipped: 1 });
    // Without {{unsubscribeUrl}} in the html, the link is added at the end.
    expect(mails.at(-1)!.replace(/=\r\n/g, '')).toMatch(/Unsubscribe<\/a>/);
  }, 120_000);

  /** The company's messages, as list_messages shows them. */
  const messagesOf = async (campaignId: string) => (await tool('list_messages', { campaignId, limit: 100 })).items as any[];

  it("SMS goes through Twilio's Messages API with the company's account; a refusal fails at once, an invalid number is a hard bounce, a 503 is retried later", async () => {
    const ids = await customers(3, true);
    const s = await segment(ids, 'Texters');
    const campaign = await tool('create_campaign', {
      name: 'Text',
      channel: 'sms',
      recipientSource: 'segment',
      segmentId: s.id,
      channelConfig: { body: 'Hi {{firstName}}, 20% off today' },
    });
    const before = twilio.requests.length;
    expect((await send(campaign.id)).status).toBe(202);
    expect((await reaches(campaign.id, 'SENT')).deliveries).toMatchObject({ total: 3, sent: 3 });
    const made = twilio.requests.slice(before);
    expect(made).toHaveLength(3);
    for (const r of made) {
      expect(r.path).toBe(`/2010-04-01/Accounts/${TWILIO.accountSid}/Messages.json`);
      expect(r.headers.authorization).toBe(`Basic ${Buffer.from(`${TWILIO.accountSid}:${TWILIO.authToken}`).toString('base64')}`);
      const form = new URLSearchParams(r.body);
      expect(form.get('From')).toBe(TWILIO.fromNumber);
      expect(form.get('To')).toMatch(/^\+491\d+$/);
      expect(form.get('Body')).toMatch(/^Hi Rita\d+, 20% off today\nUnsubscribe: http/);
    }
    const deliveries = await tool('list_campaign_deliveries', { campaignId: campaign.id });
    expect(deliveries.items.every((d: any) => d.status === 'SENT' && d.attempts === 1)).toBe(true);
    // The one message log has each, sent by the campaign, with Twilio's sid.
    const logged = await messagesOf(campaign.id);
    expect(logged).toHaveLength(3);
    for (const m of logged) {
      expect(m).toMatchObject({ channel: 'sms', status: 'sent', provider: 'twilio', sender: { kind: 'campaign', id: campaign.id }, attempts: 1 });
      expect(m.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    }

    // One customer each: Twilio refuses the first message, the second one's number is not valid, the third meets an outage.
    for (const [i, failure, status, reason] of [
      [0, { status: 400, body: { code: 21602, message: 'Message body is required.', status: 400 } }, 'FAILED', null],
      [1, { status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 } }, 'FAILED', 'HARD_BOUNCE'],
      [2, { status: 503, body: { code: 20503, message: 'Service unavailable', status: 503 } }, 'SENDING', null],
    ] as const) {
      const one = await segment([ids[i]], `One ${failure.body.code}`);
      const c = await tool('create_campaign', {
        name: `Fail ${failure.body.code}`,
        channel: 'sms',
        recipientSource: 'segment',
        segmentId: one.id,
        channelConfig: { body: 'Hi' },
      });
      twilio.failNext(failure.status, failure.body);
      expect((await send(c.id)).status).toBe(202);
      const d = await eventually(
        async () => {
          const [row] = (await tool('list_campaign_deliveries', { campaignId: c.id })).items;
          expect(row.attempts).toBe(1);
          expect(row.status).toBe(status);
          expect(row.lastError).toContain(String(failure.status));
          return row;
        },
        { tries: 300, intervalMs: 100 },
      );
      const [message] = await messagesOf(c.id);
      expect(message.error).toMatchObject({ code: String(failure.body.code), hardBounce: reason === 'HARD_BOUNCE' });
      if (status === 'SENDING') {
        // Tried again a minute later, not at once.
        expect(message.status).toBe('queued');
        const wait = new Date(d.nextAttemptAt).getTime() - Date.now();
        expect(wait).toBeGreaterThan(50_000);
        expect(wait).toBeLessThanOrEqual(60_000);
        expect(new Date(message.nextAttemptAt).getTime()).toBe(new Date(d.nextAttemptAt).getTime());
        await tool('cancel_campaign', { campaignId: c.id });
        expect((await messagesOf(c.id))[0].status).toBe('cancelled');
      } else expect(message.status).toBe('failed');
      if (reason) {
        // The number bounced: it is suppressed, and the next send skips it.
        const again = await tool('create_campaign', {
          name: 'Again',
          channel: 'sms',
          recipientSource: 'segment',
          segmentId: one.id,
          channelConfig: { body: 'Hi' },
        });
        await send(again.id);
        const [skipped] = (await tool('list_campaign_deliveries', { campaignId: (await reaches(again.id, 'SENT')).id })).items;
        expect(skipped).toMatchObject({ status: 'SKIPPED', skipReason: reason });
      }
    }
  }, 120_000);

  it('WhatsApp sends an approved template with its parameters filled in through the Cloud API', async () => {
    const ids = await customers(2, true);
    const s = await segment(ids, 'WhatsApp');
    const campaign = await tool('create_campaign', {
      name: 'Template',
      channel: 'whatsapp',
      recipientSource: 'segment',
      segmentId: s.id,
      channelConfig: { templateName: 'spring_offer', language: 'en_US', parameters: ['{{firstName}}', '20%'] },
    });
    const before = whatsapp.requests.length;
    expect((await send(campaign.id)).status).toBe(202);
    expect((await reaches(campaign.id, 'SENT')).deliveries).toMatchObject({ total: 2, sent: 2 });
    const made = whatsapp.requests.slice(before);
    expect(made).toHaveLength(2);
    for (const r of made) {
      expect(r.path).toBe(`/v21.0/${WHATSAPP.phoneNumberId}/messages`);
      expect(r.headers.authorization).toBe(`Bearer ${WHATSAPP.accessToken}`);
      expect(JSON.parse(r.body)).toMatchObject({
        messaging_product: 'whatsapp',
        to: expect.stringMatching(/^491\d+$/),
        type: 'template',
        template: {
          name: 'spring_offer',
          language: { code: 'en_US' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: expect.stringMatching(/^Rita\d+$/) },
                { type: 'text', text: '20%' },
              ],
            },
          ],
        },
      });
    }
    for (const m of await messagesOf(campaign.id)) expect(m).toMatchObject({ provider: 'whatsapp', providerMessageId: expect.stringMatching(/^wamid\./) });
  }, 60_000);

  it('killed mid-send (SIGKILL) and started again: 500 recipients, each reached, repeats only of messages in flight at the kill', async () => {
    const ids = await customers(500, true);
    const s = await segment(ids, 'Five hundred');
    const campaign = await tool('create_campaign', {
      name: 'Big',
      channel: 'sms',
      recipientSource: 'segment',
      segmentId: s.id,
      channelConfig: { body: `Big news ${Date.now()}, {{firstName}}` },
    });
    const marker = /Big news \d+/.exec(campaign.channelConfig.body)![0];
    const mine = () => texts().filter((f) => f.get('Body')!.startsWith(marker));
    expect((await send(campaign.id)).status).toBe(202);
    // Partway through (40 per second): kill it.
    await eventually(() => expect(mine().length).toBeGreaterThanOrEqual(120), { tries: 600, intervalMs: 50 });
    server!.child.kill('SIGKILL');
    await server!.exited;
    const atKill = mine().length;
    expect(atKill).toBeLessThan(500);

    await start();
    const done = await reaches(campaign.id, 'SENT', 1200);
    expect(done.deliveries).toMatchObject({ total: 500, sent: 500, failed: 0, pending: 0, sending: 0 });
    const numbers = mine().map((f) => f.get('To'));
    const audience = (await tool('list_campaign_deliveries', { campaignId: campaign.id, limit: 100 })).pagination.total;
    expect(audience).toBe(500);
    expect(new Set(numbers).size).toBe(500);
    // Neither Twilio nor the Cloud API takes an idempotency key: a message the provider took just
    // before the kill, and not yet recorded, is sent again — at most the eight a worker has in flight.
    const repeats = numbers.length - new Set(numbers).size;
    expect(repeats).toBeLessThanOrEqual(8);
    console.log(`[campaign crash test] ${atKill} requests before the kill, ${numbers.length} in all, ${repeats} repeated`);
  }, 300_000);

  it('pauses itself after 100 failures in a row', async () => {
    const ids = await customers(110, true);
    const s = await segment(ids, 'Failing');
    for (let i = 0; i < 110; i++) twilio.failNext(503, { code: 20503, message: 'Service unavailable', status: 503 });
    const campaign = await tool('create_campaign', {
      name: 'Doomed',
      channel: 'sms',
      recipientSource: 'segment',
      segmentId: s.id,
      channelConfig: { body: 'Hi' },
    });
    expect((await send(campaign.id)).status).toBe(202);
    const paused = await reaches(campaign.id, 'PAUSED', 1200);
    expect(paused.statusReason).toMatch(/100 failed deliveries in a row/);
    expect(paused.deliveries.sent).toBe(0);
  }, 120_000);
});
