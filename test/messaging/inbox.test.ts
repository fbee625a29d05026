import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { startFakeTwilio, startFakeWhatsapp, signedTwilioDelivery, signedWhatsappDelivery, type FakeProvider } from '../support/fake-providers.ts';
import { bearer, signupCompany, upgradeToStarter, type Company } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';
import { ownServer } from '../support/server.ts';

/**
 * The inbox (subgraphs/messaging): customers' WhatsApp and SMS messages arrive through the
 * providers' signed webhooks into conversations; the merchant answers through the Cloud API and
 * Twilio, under WhatsApp's 24-hour window and the customer's STOP; receipts move the status.
 */

const APP_SECRET = 'meta-app-secret-for-tests';
const VERIFY_TOKEN = 'verify-me-please';
const TWILIO = { accountSid: `AC${'7'.repeat(32)}`, authToken: 'twilio-inbox-token', fromNumber: `+4930${String(Date.now()).slice(-7)}` };
const PHONE_NUMBER_ID = String(Date.now()).slice(-13);
let numbers = 0;
/** A customer's number unique to this run. */
const aNumber = () => `+4917${String(Date.now()).slice(-6)}${String(numbers++).padStart(2, '0')}`;

let server: Awaited<ReturnType<typeof ownServer>>;
let whatsapp: FakeProvider;
let twilio: FakeProvider;
let company: Company;
let other: Company;
let merchant: Awaited<ReturnType<typeof mcpClient>>;
let seq = 0;

beforeAll(async () => {
  [whatsapp, twilio] = await Promise.all([startFakeWhatsapp(), startFakeTwilio()]);
  server = await ownServer({
    WHATSAPP_APP_SECRET: APP_SECRET,
    WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
    WHATSAPP_GRAPH_URL: `${whatsapp.url}/v21.0`,
    TWILIO_API_URL: twilio.url,
  });
  [company, other] = await Promise.all([signupCompany('Inbox Studio', server.url), signupCompany('Other Inbox', server.url)]);
  await upgradeToStarter(company.apiKey, server.url);
  merchant = await mcpClient(company.apiKey, { base: server.url });
  await callTool(merchant, 'connect_whatsapp', { phoneNumberId: PHONE_NUMBER_ID, accessToken: 'wa-inbox-token' });
  await callTool(merchant, 'connect_sms', TWILIO);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await whatsapp?.close();
  await twilio?.close();
});

/** A customer's WhatsApp message as Meta posts it (`timestamp` in Unix seconds). */
function whatsappMessage(from: string, text: string, at = new Date(), id = `wamid.in${Date.now()}${seq++}`) {
  return {
    id,
    payload: {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WABA_ID',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '4930000000', phone_number_id: PHONE_NUMBER_ID },
                contacts: [{ profile: { name: 'Maria Lopez' }, wa_id: from.slice(1) }],
                messages: [{ from: from.slice(1), id, timestamp: String(Math.floor(at.getTime() / 1000)), type: 'text', text: { body: text } }],
              },
            },
          ],
        },
      ],
    },
  };
}

const whatsappStatus = (messageId: string, status: string, recipient: string) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'WABA_ID',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '4930000000', phone_number_id: PHONE_NUMBER_ID },
            statuses: [{ id: messageId, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: recipient.slice(1) }],
          },
        },
      ],
    },
  ],
});

const postWhatsapp = (payload: unknown, secret = APP_SECRET) => {
  const { body, headers } = signedWhatsappDelivery(secret, payload);
  return fetch(`${server.url}/webhooks/whatsapp`, { method: 'POST', body, headers });
};

const postTwilio = (params: Record<string, string>, token = TWILIO.authToken) => {
  const { body, headers } = signedTwilioDelivery(token, `${server.url}/webhooks/twilio/sms`, params);
  return fetch(`${server.url}/webhooks/twilio/sms`, { method: 'POST', body, headers });
};

const conversationOf = (address: string) =>
  eventually(
    async () => {
      const { items } = await callTool(merchant, 'list_conversations', { limit: 100 });
      const found = items.find((c: any) => c.contact.address === address);
      expect(found).toBeDefined();
      return found;
    },
    { tries: 200, intervalMs: 50 },
  );

const entries = async (conversationId: string) => (await callTool(merchant, 'get_conversation', { conversationId, limit: 100 })).messages.items;

describe('WhatsApp webhooks', () => {
  it('answer Meta’s handshake only with the verify token', async () => {
    const ok = await fetch(`${server.url}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    const wrong = await fetch(`${server.url}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444`);
    expect(wrong.status).toBe(403);
  });

  it('a customer’s message opens a conversation and makes them a customer; a bad signature stores nothing, a redelivery adds nothing', async () => {
    const from = aNumber();
    const forged = whatsappMessage(from, 'forged');
    expect((await postWhatsapp(forged.payload, 'not-the-secret')).status).toBe(401);
    const unsigned = await fetch(`${server.url}/webhooks/whatsapp`, {
      method: 'POST',
      body: JSON.stringify(forged.payload),
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.status).toBe(401);

    const first = whatsappMessage(from, 'Hi, can I book a cut on Friday?');
    const res = await postWhatsapp(first.payload);
    expect(res.status).toBe(200);
    const conversation = await conversationOf(from);
    expect(conversation).toMatchObject({ channel: 'whatsapp', status: 'open', unreadCount: 1, lastMessage: 'Hi, can I book a cut on Friday?' });
    expect(conversation.contact).toMatchObject({ address: from, name: 'Maria Lopez', optedOutAt: null });
    expect(conversation.waitingSince).not.toBeNull();
    // Members made a customer of the unknown sender, and messaging linked them.
    const linked = await eventually(
      async () => {
        const c = await conversationOf(from);
        expect(c.customerId).toMatch(/^[0-9a-f-]{36}$/);
        return c;
      },
      { tries: 200, intervalMs: 50 },
    );
    // The same delivery again: nothing new; the forged one never arrived.
    expect((await postWhatsapp(first.payload)).status).toBe(200);
    await postWhatsapp(whatsappMessage(from, 'Around 3pm?').payload);
    await eventually(async () => expect(await entries(linked.id)).toHaveLength(2), { tries: 200, intervalMs: 50 });
    const texts = (await entries(linked.id)).map((m: any) => m.text);
    expect(texts).toEqual(['Around 3pm?', 'Hi, can I book a cut on Friday?']);
    // Opening it marked it read.
    expect((await conversationOf(from)).unreadCount).toBe(0);
    // Another company sees none of it.
    expect((await toolError(await mcpClient(other.apiKey, { base: server.url }), 'get_conversation', { conversationId: linked.id })).code).toBe('NOT_FOUND');
  });

  it('a reply goes out through the Cloud API; receipts move its status forward only', async () => {
    const from = aNumber();
    await postWhatsapp(whatsappMessage(from, 'Do you have parking?').payload);
    const conversation = await conversationOf(from);
    const before = whatsapp.requests.length;
    const reply = await callTool(merchant, 'reply_to_conversation', { conversationId: conversation.id, text: 'Yes, two spaces behind the studio.' });
    expect(reply).toMatchObject({ kind: 'outgoing', text: 'Yes, two spaces behind the studio.', author: { kind: 'agent' } });
    await eventually(() => expect(whatsapp.requests.length).toBe(before + 1), { tries: 200, intervalMs: 50 });
    const sent = whatsapp.requests[before];
    expect(sent.path).toBe(`/v21.0/${PHONE_NUMBER_ID}/messages`);
    expect(sent.headers.authorization).toBe('Bearer wa-inbox-token');
    expect(JSON.parse(sent.body)).toMatchObject({
      messaging_product: 'whatsapp',
      to: from.slice(1),
      type: 'text',
      text: { body: 'Yes, two spaces behind the studio.' },
    });
    const message = await eventually(
      async () => {
        const [m] = (await callTool(merchant, 'list_messages', { to: from })).items;
        expect(m.status).toBe('sent');
        return m;
      },
      { tries: 200, intervalMs: 50 },
    );
    expect(message.providerMessageId).toMatch(/^wamid\./);
    expect(message.id).toBe(reply.messageId);
    const after = await callTool(merchant, 'get_conversation', { conversationId: conversation.id });
    expect(after.waitingSince).toBeNull();

    for (const status of ['delivered', 'read', 'sent', 'delivered']) await postWhatsapp(whatsappStatus(message.providerMessageId, status, from));
    await eventually(
      async () => {
        const [m] = (await callTool(merchant, 'list_messages', { to: from })).items;
        expect(m.status).toBe('read');
        expect(m.deliveredAt).not.toBeNull();
        expect(m.readAt).not.toBeNull();
      },
      { tries: 200, intervalMs: 50 },
    );
    const [entry] = await entries(conversation.id);
    expect(entry.status).toBe('read');
  });

  it('outside the 24-hour window only an approved template goes', async () => {
    const from = aNumber();
    await postWhatsapp(whatsappMessage(from, 'Thanks!', new Date(Date.now() - 25 * 3600_000)).payload);
    const conversation = await conversationOf(from);
    const refused = await toolError(merchant, 'reply_to_conversation', { conversationId: conversation.id, text: 'Anything else?' });
    expect(refused.code).toBe('TEMPLATE_REQUIRED');
    expect(new Date(refused.details.windowEndedAt).getTime()).toBe(new Date(conversation.lastIncomingAt).getTime() + 24 * 3600_000);
    expect(
      (
        await http(`/v6/merchant/messaging/conversations/${conversation.id}/replies`, {
          base: server.url,
          method: 'POST',
          body: { text: 'x' },
          headers: bearer(company.apiKey),
        })
      ).status,
    ).toBe(409);

    const template = await callTool(merchant, 'create_message_template', {
      name: 'visit_reminder',
      language: 'en',
      category: 'utility',
      body: 'Hi {{1}}, see you on {{2}}.',
    });
    expect(template).toMatchObject({ name: 'visit_reminder', parameterCount: 2 });
    expect((await toolError(merchant, 'create_message_template', { name: 'visit_reminder', language: 'en', category: 'utility', body: 'Other' })).code).toBe(
      'CONFLICT',
    );
    const wrong = await toolError(merchant, 'reply_to_conversation', {
      conversationId: conversation.id,
      templateName: 'visit_reminder',
      language: 'en',
      parameters: ['Maria'],
    });
    expect(wrong).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'parameters' } });
    const before = whatsapp.requests.length;
    const sent = await callTool(merchant, 'reply_to_conversation', {
      conversationId: conversation.id,
      templateName: 'visit_reminder',
      language: 'en',
      parameters: ['Maria', 'Friday'],
    });
    expect(sent).toMatchObject({ text: 'Hi Maria, see you on Friday.', templateName: 'visit_reminder' });
    await eventually(() => expect(whatsapp.requests.length).toBe(before + 1), { tries: 200, intervalMs: 50 });
    expect(JSON.parse(whatsapp.requests[before].body)).toMatchObject({
      type: 'template',
      template: { name: 'visit_reminder', language: { code: 'en' }, components: [{ type: 'body', parameters: [{ text: 'Maria' }, { text: 'Friday' }] }] },
    });
    const listed = await callTool(merchant, 'list_message_templates', {});
    expect(listed.items.map((t: any) => t.name)).toContain('visit_reminder');
    const updated = await callTool(merchant, 'update_message_template', { templateId: template.id, body: 'Hello {{1}}!' });
    expect(updated).toMatchObject({ body: 'Hello {{1}}!', parameterCount: 1, category: 'utility' });
    expect((await callTool(merchant, 'delete_message_template', { templateId: template.id })).deleted).toBe(true);
    expect((await toolError(merchant, 'delete_message_template', { templateId: template.id })).code).toBe('NOT_FOUND');
  });

  it('STOP blocks the next message and the next campaign; START lets them through again', async () => {
    const from = aNumber();
    await postWhatsapp(whatsappMessage(from, 'Hello').payload);
    const conversation = await eventually(
      async () => {
        const c = await conversationOf(from);
        expect(c.customerId).not.toBeNull();
        return c;
      },
      { tries: 200, intervalMs: 50 },
    );
    await postWhatsapp(whatsappMessage(from, 'stop').payload);
    await eventually(async () => expect((await conversationOf(from)).contact.optedOutAt).not.toBeNull(), { tries: 200, intervalMs: 50 });
    expect((await toolError(merchant, 'reply_to_conversation', { conversationId: conversation.id, text: 'Sorry to see you go' })).code).toBe(
      'CONSENT_REQUIRED',
    );

    const segment = await callTool(merchant, 'create_customer_segment', { name: `Stopped ${from}`, customerIds: [conversation.customerId] });
    await eventually(async () => expect((await callTool(merchant, 'preview_segment', { segmentId: segment.id })).count).toBe(1), {
      tries: 200,
      intervalMs: 50,
    });
    const campaign = await callTool(merchant, 'create_campaign', {
      name: 'After STOP',
      channel: 'whatsapp',
      recipientSource: 'segment',
      segmentId: segment.id,
      channelConfig: { templateName: 'offer', language: 'en', parameters: [] },
    });
    await eventually(
      async () => {
        const res = await http(`/v6/merchant/campaigns/${campaign.id}/send`, { base: server.url, method: 'POST', headers: bearer(company.apiKey) });
        expect(res.status).toBe(202);
      },
      { tries: 1 },
    );
    await eventually(
      async () => {
        const [d] = (await callTool(merchant, 'list_campaign_deliveries', { campaignId: campaign.id })).items;
        expect(d).toMatchObject({ status: 'SKIPPED', skipReason: 'UNSUBSCRIBED' });
      },
      { tries: 200, intervalMs: 50 },
    );

    await postWhatsapp(whatsappMessage(from, 'START').payload);
    await eventually(async () => expect((await conversationOf(from)).contact.optedOutAt).toBeNull(), { tries: 200, intervalMs: 50 });
    expect(await callTool(merchant, 'reply_to_conversation', { conversationId: conversation.id, text: 'Welcome back' })).toMatchObject({ kind: 'outgoing' });
  });
});

describe('SMS webhooks (Twilio)', () => {
  it('an incoming SMS opens a conversation; the reply goes through Twilio; a status callback moves it; a bad signature is 401', async () => {
    const from = aNumber();
    const params = {
      AccountSid: TWILIO.accountSid,
      MessageSid: `SM${'a'.repeat(30)}${String(seq++).padStart(2, '0')}`,
      From: from,
      To: TWILIO.fromNumber,
      Body: 'Running 10 min late',
      SmsStatus: 'received',
      NumMedia: '0',
    };
    expect((await postTwilio(params, 'wrong-token')).status).toBe(401);
    const ok = await postTwilio(params);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('<Response></Response>');
    const conversation = await conversationOf(from);
    expect(conversation).toMatchObject({ channel: 'sms', lastMessage: 'Running 10 min late', replyWindowEndsAt: null });
    await postTwilio(params);

    const before = twilio.requests.length;
    const reply = await callTool(merchant, 'reply_to_conversation', { conversationId: conversation.id, text: 'No problem, see you soon' });
    await eventually(() => expect(twilio.requests.length).toBe(before + 1), { tries: 200, intervalMs: 50 });
    const form = new URLSearchParams(twilio.requests[before].body);
    expect(Object.fromEntries(form)).toMatchObject({ To: from, From: TWILIO.fromNumber, Body: 'No problem, see you soon' });
    const message = await eventually(
      async () => {
        const m = (await callTool(merchant, 'list_messages', { to: from })).items[0];
        expect(m).toMatchObject({ id: reply.messageId, status: 'sent', provider: 'twilio' });
        return m;
      },
      { tries: 200, intervalMs: 50 },
    );
    await postTwilio({ AccountSid: TWILIO.accountSid, MessageSid: message.providerMessageId, MessageStatus: 'delivered', To: from, From: TWILIO.fromNumber });
    await eventually(async () => expect((await callTool(merchant, 'list_messages', { to: from })).items[0].status).toBe('delivered'), {
      tries: 200,
      intervalMs: 50,
    });
    expect(await entries(conversation.id)).toHaveLength(2);

    await postTwilio({ ...params, MessageSid: `SM${'b'.repeat(30)}${String(seq++).padStart(2, '0')}`, Body: 'STOP' });
    await eventually(async () => expect((await conversationOf(from)).contact.optedOutAt).not.toBeNull(), { tries: 200, intervalMs: 50 });
    expect((await toolError(merchant, 'reply_to_conversation', { conversationId: conversation.id, text: 'Hi' })).code).toBe('CONSENT_REQUIRED');
  });
});

describe('the inbox', () => {
  it('assigns, notes, resolves and snoozes; the customer’s next message reopens it; bad input names the field', async () => {
    const from = aNumber();
    await postWhatsapp(whatsappMessage(from, 'Question about my booking').payload);
    const conversation = await conversationOf(from);
    const staffId = '0190a0a0-0000-7000-8000-000000000001';
    expect(await callTool(merchant, 'assign_conversation', { conversationId: conversation.id, assigneeId: staffId, priority: 'high' })).toMatchObject({
      assigneeId: staffId,
      priority: 'high',
    });
    expect((await callTool(merchant, 'list_conversations', { assigneeId: staffId })).items.map((c: any) => c.id)).toEqual([conversation.id]);
    const before = whatsapp.requests.length;
    const note = await callTool(merchant, 'add_conversation_note', { conversationId: conversation.id, text: 'VIP, offer the 10% discount' });
    expect(note).toMatchObject({ kind: 'note', status: null, messageId: null });
    expect(whatsapp.requests.length).toBe(before);

    expect((await callTool(merchant, 'set_conversation_status', { conversationId: conversation.id, status: 'resolved' })).status).toBe('resolved');
    expect((await callTool(merchant, 'list_conversations', { status: 'resolved' })).items.map((c: any) => c.id)).toContain(conversation.id);
    await postWhatsapp(whatsappMessage(from, 'One more thing').payload);
    await eventually(async () => expect((await conversationOf(from)).status).toBe('open'), { tries: 200, intervalMs: 50 });

    const past = await toolError(merchant, 'set_conversation_status', {
      conversationId: conversation.id,
      status: 'snoozed',
      snoozedUntil: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'snoozedUntil' } });
    const until = new Date(Date.now() + 3600_000).toISOString();
    expect(await callTool(merchant, 'set_conversation_status', { conversationId: conversation.id, status: 'snoozed', snoozedUntil: until })).toMatchObject({
      status: 'snoozed',
      snoozedUntil: until,
    });
    expect((await toolError(merchant, 'assign_conversation', { conversationId: conversation.id, assigneeId: 'bob' })).details.field).toBe('assigneeId');
    expect((await toolError(merchant, 'get_conversation', { conversationId: 'nope' })).details.field).toBe('conversationId');
    expect((await toolError(merchant, 'reply_to_conversation', { conversationId: conversation.id })).details.field).toBe('text');
    const rest = await http(`/v6/merchant/messaging/conversations?status=snoozed`, { base: server.url, headers: bearer(company.apiKey) });
    expect(rest.status).toBe(200);
    expect(rest.body.data.items.map((c: any) => c.id)).toContain(conversation.id);
  });

  it('send_message writes first: a template on WhatsApp, text by SMS; a customer without a number is 400 naming the channel', async () => {
    const from = aNumber();
    await postWhatsapp(whatsappMessage(from, 'hi').payload);
    const { customerId } = await eventually(
      async () => {
        const c = await conversationOf(from);
        expect(c.customerId).not.toBeNull();
        return c;
      },
      { tries: 200, intervalMs: 50 },
    );
    const before = twilio.requests.length;
    const sms = await callTool(merchant, 'send_message', { customerId, channel: 'sms', text: 'Your booking is confirmed' });
    expect(sms).toMatchObject({ kind: 'outgoing', text: 'Your booking is confirmed' });
    await eventually(() => expect(twilio.requests.length).toBe(before + 1), { tries: 200, intervalMs: 50 });
    // A conversation per channel: the customer's WhatsApp one, and the SMS one this started.
    expect(new Set((await callTool(merchant, 'list_conversations', { customerId })).items.map((c: any) => c.channel))).toEqual(new Set(['whatsapp', 'sms']));
    const smsConversation = (await callTool(merchant, 'list_conversations', { customerId, channel: 'sms' })).items[0];
    expect(smsConversation.contact.address).toBe(from);
    expect((await toolError(merchant, 'send_message', { customerId, channel: 'email', text: 'Hi' })).details.field).toBe('channel');
    expect((await toolError(merchant, 'send_message', { customerId: '0190a0a0-0000-7000-8000-0000000000ff', channel: 'sms', text: 'Hi' })).code).toBe(
      'NOT_FOUND',
    );
  });
});
