import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderFailure, type MessageProvider, type OutgoingProviderMessage } from '../../subgraphs/kernel/messaging/providers.ts';
import { parseTwilioWebhook, twilioProvider, verifyTwilioSignature } from '../../subgraphs/kernel/messaging/twilio.ts';
import { parseWhatsappWebhook, verifyWhatsappSignature, whatsappChallenge, whatsappProvider } from '../../subgraphs/kernel/messaging/whatsapp.ts';
import { signedTwilioDelivery, signedWhatsappDelivery, startFakeTwilio, startFakeWhatsapp, type FakeProvider } from '../support/fake-providers.ts';

/** The provider layer for SMS (Twilio) and WhatsApp (Cloud API) against local servers that speak their formats. */

const PHONE_NUMBER_ID = '106540352242922';
const ACCOUNT_SID = 'AC' + 'a1'.repeat(16);

/** The failure a send ends with (the test fails if it succeeds or throws anything else). */
async function failureOf(provider: MessageProvider, message: OutgoingProviderMessage): Promise<ProviderFailure> {
  const outcome = await provider.send(message).then(
    () => new Error('the send succeeded'),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(ProviderFailure);
  return outcome as ProviderFailure;
}

const kindOf = (failure: ProviderFailure) => ({ permanent: failure.permanent, hardBounce: failure.hardBounce, providerCode: failure.providerCode });

describe('WhatsApp Cloud API provider', () => {
  let fake: FakeProvider;
  let provider: MessageProvider;
  const graphError = (code: number, message: string) => ({ error: { message, type: 'OAuthException', code, error_subcode: 2494010, fbtrace_id: 'AbCdEf123' } });

  beforeAll(async () => {
    fake = await startFakeWhatsapp();
    provider = whatsappProvider({ graphUrl: `${fake.url}/v21.0/`, phoneNumberId: PHONE_NUMBER_ID, accessToken: 'EAAG-token' });
  });
  afterAll(() => fake.close());

  it('sends a text message in the Cloud API format, to the digits of the number, and returns the wamid', async () => {
    const first = await provider.send({ to: '+1 (650) 555-1234', text: 'Your booking is confirmed.', idempotencyKey: 'c1:k1' });
    const second = await provider.send({ to: '+16505551234', text: 'See you soon.', idempotencyKey: 'c1:k2' });

    const request = fake.requests.at(-2)!;
    expect(request.path).toBe(`/v21.0/${PHONE_NUMBER_ID}/messages`);
    expect(request.headers.authorization).toBe('Bearer EAAG-token');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '16505551234',
      type: 'text',
      text: { preview_url: false, body: 'Your booking is confirmed.' },
    });
    expect(first.providerMessageId).toMatch(/^wamid\.\S+$/);
    expect(second.providerMessageId).toMatch(/^wamid\./);
    expect(second.providerMessageId).not.toBe(first.providerMessageId);
  });

  it('sends a template with its language and body parameters, and leaves components out when there are none', async () => {
    await provider.send({
      to: '+447700900123',
      template: { name: 'booking_reminder', language: 'en_GB', parameters: ['Ann', 'Tuesday 10:00'] },
      text: 'ignored: the template goes',
      idempotencyKey: 'c2:k1',
    });
    expect(JSON.parse(fake.requests.at(-1)!.body)).toEqual({
      messaging_product: 'whatsapp',
      to: '447700900123',
      type: 'template',
      template: {
        name: 'booking_reminder',
        language: { code: 'en_GB' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ann' },
              { type: 'text', text: 'Tuesday 10:00' },
            ],
          },
        ],
      },
    });

    const { providerMessageId } = await provider.send({
      to: '447700900123',
      template: { name: 'hello_world', language: 'en_US', parameters: [] },
      idempotencyKey: 'c2:k2',
    });
    expect(providerMessageId).toMatch(/^wamid\./);
    expect(JSON.parse(fake.requests.at(-1)!.body).template).toEqual({ name: 'hello_world', language: { code: 'en_US' } });
  });

  it('tells a failure that can pass (5xx, 429, throttling codes) from one that cannot (4xx) and from a bad number (131026)', async () => {
    const message = { to: '+16505551234', text: 'Hi', idempotencyKey: 'c3:k1' };

    fake.failNext(500, graphError(131000, 'Something went wrong'));
    expect(kindOf(await failureOf(provider, message))).toEqual({ permanent: false, hardBounce: false, providerCode: '131000' });

    fake.failNext(429, graphError(130429, '(#130429) Rate limit hit'));
    expect(kindOf(await failureOf(provider, message))).toEqual({ permanent: false, hardBounce: false, providerCode: '130429' });

    // Meta answers its throttling with HTTP 400; the code says trying later helps.
    fake.failNext(400, graphError(131056, '(#131056) (Business Account, Consumer Account) pair rate limit hit'));
    expect(kindOf(await failureOf(provider, message))).toEqual({ permanent: false, hardBounce: false, providerCode: '131056' });

    fake.failNext(400, graphError(100, '(#100) Invalid parameter'));
    const invalid = await failureOf(provider, message);
    expect(kindOf(invalid)).toEqual({ permanent: true, hardBounce: false, providerCode: '100' });
    expect(invalid.message).toContain('(#100) Invalid parameter');

    fake.failNext(400, graphError(131030, '(#131030) Recipient phone number not in allowed list'));
    expect(kindOf(await failureOf(provider, message))).toEqual({ permanent: true, hardBounce: false, providerCode: '131030' });

    fake.failNext(400, graphError(131026, '(#131026) Message undeliverable'));
    expect(kindOf(await failureOf(provider, message))).toEqual({ permanent: true, hardBounce: true, providerCode: '131026' });

    // After the queued failures the fake answers normally again.
    expect((await provider.send(message)).providerMessageId).toMatch(/^wamid\./);
  });

  it('is refused without a token (the fake checks it) and cannot send a message with neither text nor template', async () => {
    const untokened = whatsappProvider({ graphUrl: `${fake.url}/v21.0`, phoneNumberId: PHONE_NUMBER_ID, accessToken: '' });
    expect(kindOf(await failureOf(untokened, { to: '+16505551234', text: 'Hi', idempotencyKey: 'c4:k1' }))).toEqual({
      permanent: true,
      hardBounce: false,
      providerCode: '190',
    });

    const before = fake.requests.length;
    expect((await failureOf(provider, { to: '+16505551234', idempotencyKey: 'c4:k2' })).permanent).toBe(true);
    expect(fake.requests).toHaveLength(before);
  });

  it('treats no answer at all as a failure that can pass', async () => {
    const gone = await startFakeWhatsapp();
    await gone.close();
    const unreachable = whatsappProvider({ graphUrl: gone.url, phoneNumberId: PHONE_NUMBER_ID, accessToken: 'EAAG-token' });
    const failure = await failureOf(unreachable, { to: '+16505551234', text: 'Hi', idempotencyKey: 'c5:k1' });
    expect(kindOf(failure)).toEqual({ permanent: false, hardBounce: false, providerCode: undefined });
    expect(failure.message).toMatch(/unreachable/);
  });
});

describe('Twilio Messages API provider', () => {
  let fake: FakeProvider;
  let provider: MessageProvider;
  const twilioError = (status: number, code: number, message: string) => ({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

  beforeAll(async () => {
    fake = await startFakeTwilio();
    provider = twilioProvider({ apiUrl: fake.url, accountSid: ACCOUNT_SID, authToken: 'auth-token-1', from: '+15005550006' });
  });
  afterAll(() => fake.close());

  it('posts To, From and Body form-encoded with Basic auth and returns the SM sid', async () => {
    const { providerMessageId } = await provider.send({ to: '+16505551234', text: 'Code: 123456 & welcome', idempotencyKey: 's1:k1' });
    expect(providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);

    const request = fake.requests.at(-1)!;
    expect(request.path).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers.authorization).toMatch(/^Basic /);
    expect(Buffer.from(request.headers.authorization!.slice('Basic '.length), 'base64').toString()).toBe(`${ACCOUNT_SID}:auth-token-1`);
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ To: '+16505551234', From: '+15005550006', Body: 'Code: 123456 & welcome' });
  });

  it('sends the text of a message that also has a template, and refuses one with only a template without calling Twilio', async () => {
    await provider.send({
      to: '+16505551234',
      text: 'Reminder: Tuesday',
      template: { name: 'reminder', language: 'en', parameters: [] },
      idempotencyKey: 's2:k1',
    });
    expect(new URLSearchParams(fake.requests.at(-1)!.body).get('Body')).toBe('Reminder: Tuesday');

    const before = fake.requests.length;
    const failure = await failureOf(provider, { to: '+16505551234', template: { name: 'reminder', language: 'en', parameters: [] }, idempotencyKey: 's2:k2' });
    expect(failure.permanent).toBe(true);
    expect(failure.message).toMatch(/SMS needs text/);
    expect(fake.requests).toHaveLength(before);
  });

  it('makes 21211, 21614 and 21610 hard bounces, another 4xx permanent, and 503, 429 and 408 failures that can pass', async () => {
    const message = { to: '+1555', text: 'Hi', idempotencyKey: 's3:k1' };

    fake.failNext(400, twilioError(400, 21211, "The 'To' number +1555 is not a valid phone number."));
    const invalid = await failureOf(provider, message);
    expect(kindOf(invalid)).toEqual({ permanent: true, hardBounce: true, providerCode: '21211' });
    expect(invalid.message).toContain('is not a valid phone number');

    fake.failNext(400, twilioError(400, 21614, "'To' number is not a valid mobile number"));
    expect(kindOf(await failureOf(provider, message))).toEqual({ permanent: true, hardBounce: true, providerCode: '21614' });

    fake.failNext(400, twilioError(400, 21610, 'Attempt to send to unsubscribed recipient'));
    expect(kindOf(await failureOf(provider, message))).toEqual({ permanent: true, hardBounce: true, providerCode: '21610' });

    fake.failNext(400, twilioError(400, 21606, "The 'From' phone number provided is not a valid message-capable Twilio phone number for this destination."));
    expect(kindOf(await failureOf(provider, message))).toEqual({ permanent: true, hardBounce: false, providerCode: '21606' });

    fake.failNext(503, twilioError(503, 20503, 'Service Unavailable'));
    expect(kindOf(await failureOf(provider, message))).toEqual({ permanent: false, hardBounce: false, providerCode: '20503' });

    fake.failNext(429, twilioError(429, 20429, 'Too Many Requests'));
    expect(kindOf(await failureOf(provider, message))).toEqual({ permanent: false, hardBounce: false, providerCode: '20429' });

    fake.failNext(408, 'timeout');
    expect(kindOf(await failureOf(provider, message))).toEqual({ permanent: false, hardBounce: false, providerCode: undefined });
  });

  it('is refused with a wrong-shaped credential (the fake checks Basic auth)', async () => {
    const tokenless = twilioProvider({ apiUrl: fake.url, accountSid: ACCOUNT_SID, authToken: '', from: '+15005550006' });
    expect(kindOf(await failureOf(tokenless, { to: '+16505551234', text: 'Hi', idempotencyKey: 's4:k1' }))).toEqual({
      permanent: true,
      hardBounce: false,
      providerCode: '20003',
    });
  });
});

describe('webhook signatures and the WhatsApp handshake', () => {
  const payload = { object: 'whatsapp_business_account', entry: [{ id: '102290129340398', changes: [] }] };

  it('accepts a WhatsApp delivery signed with the app secret and refuses a changed body, another secret or no header', () => {
    const { body, headers } = signedWhatsappDelivery('app-secret', payload);
    expect(verifyWhatsappSignature('app-secret', body, headers['x-hub-signature-256'])).toBe(true);
    expect(verifyWhatsappSignature('app-secret', body.replace('102290129340398', '102290129340399'), headers['x-hub-signature-256'])).toBe(false);
    expect(verifyWhatsappSignature('other-secret', body, headers['x-hub-signature-256'])).toBe(false);
    expect(verifyWhatsappSignature('app-secret', body, undefined)).toBe(false);
    expect(verifyWhatsappSignature('app-secret', body, '')).toBe(false);
    // The bare hex, without the `sha256=` Meta puts before it, is not the header Meta sends.
    expect(verifyWhatsappSignature('app-secret', body, headers['x-hub-signature-256'].slice('sha256='.length))).toBe(false);
  });

  it('accepts a Twilio request signed with the auth token and refuses a changed parameter, URL or token, or no header', () => {
    const url = 'https://api.example.test/webhooks/twilio/sms?company=c1';
    const params = { MessageSid: 'SM' + 'b2'.repeat(16), From: '+16505551234', To: '+15005550006', Body: 'STOP', AccountSid: ACCOUNT_SID };
    const { body, headers } = signedTwilioDelivery('auth-token-1', url, params);
    const received = Object.fromEntries(new URLSearchParams(body));
    const signature = headers['x-twilio-signature'];

    expect(verifyTwilioSignature('auth-token-1', url, received, signature)).toBe(true);
    expect(verifyTwilioSignature('auth-token-1', url, { ...received, Body: 'START' }, signature)).toBe(false);
    expect(verifyTwilioSignature('auth-token-1', url.replace('c1', 'c2'), received, signature)).toBe(false);
    expect(verifyTwilioSignature('auth-token-2', url, received, signature)).toBe(false);
    expect(verifyTwilioSignature('auth-token-1', url, received, undefined)).toBe(false);
  });

  it("matches the example of Twilio's own documentation", () => {
    const params = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    expect(verifyTwilioSignature('12345', url, params, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(true);
    expect(signedTwilioDelivery('12345', url, params).headers['x-twilio-signature']).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
  });

  it('answers the WhatsApp GET handshake with the challenge only for subscribe and the right token', () => {
    const query = (token: string, mode = 'subscribe') => new URLSearchParams({ 'hub.mode': mode, 'hub.verify_token': token, 'hub.challenge': '1158201444' });
    expect(whatsappChallenge(query('verify-me'), 'verify-me')).toBe('1158201444');
    expect(whatsappChallenge(query('verify-you'), 'verify-me')).toBeNull();
    expect(whatsappChallenge(query('verify-m'), 'verify-me')).toBeNull();
    expect(whatsappChallenge(query('verify-me', 'unsubscribe'), 'verify-me')).toBeNull();
    expect(whatsappChallenge(new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.challenge': '1158201444' }), 'verify-me')).toBeNull();
  });
});

describe('reading WhatsApp webhook deliveries', () => {
  const metadata = { display_phone_number: '15550783881', phone_number_id: PHONE_NUMBER_ID };
  const delivery = (value: Record<string, unknown>, field = 'messages') => ({
    object: 'whatsapp_business_account',
    entry: [{ id: '102290129340398', changes: [{ field, value: { messaging_product: 'whatsapp', metadata, ...value } }] }],
  });

  it('reads an incoming text message with the sender and profile name', () => {
    const payload = delivery({
      contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
      messages: [
        {
          from: '16505551234',
          id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUQ0N0VFMDA2MTQ0RkJFNkNDNAA=',
          timestamp: '1749416383',
          type: 'text',
          text: { body: 'Can I move my booking?' },
        },
      ],
    });
    // What a route would get: the raw body parsed after its signature was checked.
    const { body } = signedWhatsappDelivery('app-secret', payload);
    expect(parseWhatsappWebhook(JSON.parse(body))).toEqual([
      {
        kind: 'message',
        phoneNumberId: PHONE_NUMBER_ID,
        from: '16505551234',
        providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUQ0N0VFMDA2MTQ0RkJFNkNDNAA=',
        timestamp: new Date(1749416383 * 1000),
        text: 'Can I move my booking?',
        profileName: 'Sheena Nelson',
      },
    ]);
  });

  it('reads the label of a tapped reply button, list row or template quick reply', () => {
    const base = { from: '16505551234', timestamp: '1749416400', context: { from: '15550783881', id: 'wamid.original' } };
    const events = parseWhatsappWebhook(
      delivery({
        messages: [
          { ...base, id: 'wamid.b1', type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'change', title: 'Change' } } },
          {
            ...base,
            id: 'wamid.b2',
            type: 'interactive',
            interactive: { type: 'list_reply', list_reply: { id: 'row-2', title: 'Thursday', description: '10:00' } },
          },
          { ...base, id: 'wamid.b3', type: 'button', button: { text: 'Stop promotions', payload: 'STOP' } },
        ],
      }),
    );
    expect(events.map((e) => (e.kind === 'message' ? [e.providerMessageId, e.text, e.profileName] : e.kind))).toEqual([
      ['wamid.b1', 'Change', undefined],
      ['wamid.b2', 'Thursday', undefined],
      ['wamid.b3', 'Stop promotions', undefined],
    ]);
  });

  it('reads delivered, read and failed statuses, with the error of a failure, and skips states it does not know', () => {
    const status = (id: string, state: string, extra: Record<string, unknown> = {}) => ({
      id,
      status: state,
      timestamp: '1750263773',
      recipient_id: '16505551234',
      ...extra,
    });
    const events = parseWhatsappWebhook(
      delivery({
        statuses: [
          status('wamid.s1', 'delivered', {
            conversation: { id: 'c1', origin: { type: 'utility' } },
            pricing: { billable: true, pricing_model: 'PMP', category: 'utility' },
          }),
          status('wamid.s2', 'read'),
          status('wamid.s3', 'failed', {
            errors: [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable', error_data: { details: 'Message Undeliverable.' } }],
          }),
          status('wamid.s4', 'deleted'),
        ],
      }),
    );
    const at = new Date(1750263773 * 1000);
    expect(events).toEqual([
      { kind: 'status', phoneNumberId: PHONE_NUMBER_ID, providerMessageId: 'wamid.s1', status: 'delivered', timestamp: at, recipient: '16505551234' },
      { kind: 'status', phoneNumberId: PHONE_NUMBER_ID, providerMessageId: 'wamid.s2', status: 'read', timestamp: at, recipient: '16505551234' },
      {
        kind: 'status',
        phoneNumberId: PHONE_NUMBER_ID,
        providerMessageId: 'wamid.s3',
        status: 'failed',
        timestamp: at,
        recipient: '16505551234',
        error: { code: 131026, title: 'Message undeliverable' },
      },
    ]);
  });

  it('reads what it can of a batch and ignores other objects, other fields and shapes it does not know, without throwing', () => {
    const good = { from: '16505551234', id: 'wamid.ok', timestamp: '1749416383', type: 'text', text: { body: 'ok' } };
    const payload = {
      object: 'whatsapp_business_account',
      entry: [
        { id: '1', changes: [{ field: 'account_update', value: { event: 'VERIFIED_ACCOUNT' } }] },
        { id: '2', changes: 'not a list' },
        {
          id: '3',
          changes: [
            {
              field: 'messages',
              value: {
                metadata,
                messages: [
                  null,
                  { ...good, id: 42 },
                  { ...good, timestamp: 'soon' },
                  good,
                  {
                    from: '16505551234',
                    id: 'wamid.img',
                    timestamp: '1749416390',
                    type: 'image',
                    image: { caption: 'my receipt', mime_type: 'image/jpeg', id: '1003383421387256' },
                  },
                ],
              },
            },
            { field: 'messages', value: { messages: [good] } },
          ],
        },
      ],
    };
    expect(parseWhatsappWebhook(payload).map((e) => (e.kind === 'message' ? `${e.providerMessageId}:${e.text}` : e.kind))).toEqual([
      'wamid.ok:ok',
      'wamid.img:my receipt',
    ]);
    for (const odd of [
      null,
      undefined,
      'text',
      42,
      [],
      {},
      { object: 'page', entry: [{ changes: [{ field: 'messages', value: { metadata, messages: [good] } }] }] },
    ])
      expect(parseWhatsappWebhook(odd)).toEqual([]);
  });
});

describe('reading Twilio webhook requests', () => {
  const common = { AccountSid: ACCOUNT_SID, ApiVersion: '2010-04-01', From: '+15005550006', To: '+16505551234' };

  it('reads an incoming message', () => {
    const incoming = {
      ToCountry: 'US',
      SmsMessageSid: 'SM' + 'c3'.repeat(16),
      NumMedia: '0',
      SmsSid: 'SM' + 'c3'.repeat(16),
      SmsStatus: 'received',
      Body: 'Running late, 10 min',
      To: '+15005550006',
      NumSegments: '1',
      MessageSid: 'SM' + 'c3'.repeat(16),
      AccountSid: ACCOUNT_SID,
      From: '+16505551234',
      ApiVersion: '2010-04-01',
    };
    // What a route would get: the form body parsed after its signature was checked.
    const { body } = signedTwilioDelivery('auth-token-1', 'https://api.example.test/webhooks/twilio/sms', incoming);
    expect(parseTwilioWebhook(Object.fromEntries(new URLSearchParams(body)))).toEqual({
      kind: 'message',
      from: '+16505551234',
      to: '+15005550006',
      providerMessageId: 'SM' + 'c3'.repeat(16),
      text: 'Running late, 10 min',
    });
  });

  it('reads status callbacks: sent, delivered and read as they are, undelivered and failed as failed with the error code, queued and sending as nothing', () => {
    const callback = (status: string, extra: Record<string, string> = {}) =>
      parseTwilioWebhook({ ...common, MessageSid: 'SM' + 'd4'.repeat(16), SmsSid: 'SM' + 'd4'.repeat(16), MessageStatus: status, SmsStatus: status, ...extra });
    const providerMessageId = 'SM' + 'd4'.repeat(16);

    expect(callback('sent')).toEqual({ kind: 'status', providerMessageId, status: 'sent' });
    expect(callback('delivered')).toEqual({ kind: 'status', providerMessageId, status: 'delivered' });
    expect(callback('read')).toEqual({ kind: 'status', providerMessageId, status: 'read' });
    expect(callback('undelivered', { ErrorCode: '30003' })).toEqual({ kind: 'status', providerMessageId, status: 'failed', errorCode: '30003' });
    expect(callback('failed', { ErrorCode: '30008' })).toEqual({ kind: 'status', providerMessageId, status: 'failed', errorCode: '30008' });
    expect(callback('queued')).toBeNull();
    expect(callback('sending')).toBeNull();
    // A status callback never reads as an incoming message, even if it carries a body.
    expect(callback('delivered', { Body: 'Your code is 123456' })).toEqual({ kind: 'status', providerMessageId, status: 'delivered' });
  });

  it('returns null for requests it does not recognise', () => {
    expect(parseTwilioWebhook({})).toBeNull();
    expect(parseTwilioWebhook({ ...common, Body: 'no sid' })).toBeNull();
    expect(parseTwilioWebhook({ ...common, MessageSid: 'SM1', MessageStatus: 'toString' })).toBeNull();
    expect(parseTwilioWebhook({ MessageSid: 'SM1', SmsStatus: 'received', Body: 'no addresses' })).toBeNull();
  });
});
