import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for WhatsApp's Cloud API and Twilio's Messages API, on loopback: they take the
 * requests the real services take (paths, authentication, body encodings) and answer in their
 * formats, recording each request for assertions. `failNext` makes the next request answer with
 * the given status and body instead, as the real service does when it refuses one.
 */
export interface FakeProvider {
  url: string;
  requests: Array<{ path: string; headers: IncomingHttpHeaders; body: string }>;
  failNext(status: number, errorBody: unknown): void;
  close(): Promise<void>;
}

type Answer = { status: number; body: unknown };

async function startFake(answer: (path: string, headers: IncomingHttpHeaders, body: string) => Answer): Promise<FakeProvider> {
  const requests: FakeProvider['requests'] = [];
  const failures: Answer[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      requests.push({ path, headers: req.headers, body });
      const reply = failures.shift() ?? answer(path, req.headers, body);
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    failNext: (status, errorBody) => failures.push({ status, body: errorBody }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A Graph API error as the Cloud API answers it. */
const graphError = (status: number, code: number, message: string, type = 'OAuthException'): Answer => ({
  status,
  body: { error: { message, type, code, fbtrace_id: randomBytes(12).toString('base64url') } },
});

/** The Cloud API: `POST /{version}/{phone-number-id}/messages` with a Bearer token and a JSON body. */
export function startFakeWhatsapp(): Promise<FakeProvider> {
  return startFake((path, headers, body) => {
    if (!/^(\/v\d+\.\d+)?\/[^/]+\/messages$/.test(path)) return graphError(400, 100, 'Unsupported post request.', 'GraphMethodException');
    if (!/^Bearer \S+$/.test(headers.authorization ?? '')) return graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
    let message: { to?: unknown };
    try {
      message = JSON.parse(body);
    } catch {
      return graphError(400, 100, '(#100) Invalid parameter');
    }
    const to = String(message.to ?? '');
    return {
      status: 200,
      body: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id: `wamid.${randomBytes(27).toString('base64')}` }] },
    };
  });
}

/** A Twilio REST error as the 2010-04-01 API answers it. */
const twilioError = (status: number, code: number, message: string): Answer => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});

/** Twilio's Messages API: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, Basic auth, a form-encoded body. */
export function startFakeTwilio(): Promise<FakeProvider> {
  return startFake((path, headers, body) => {
    const account = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path)?.[1];
    if (!account) return twilioError(404, 20404, `The requested resource ${path} was not found`);
    const credentials = Buffer.from((headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8');
    const [user, password] = credentials.split(':');
    if (!headers.authorization?.startsWith('Basic ') || user !== account || !password) return twilioError(401, 20003, 'Authenticate');
    const form = new URLSearchParams(body);
    const to = form.get('To');
    const text = form.get('Body');
    if (!to) return twilioError(400, 21604, "A 'To' phone number is required.");
    if (!text) return twilioError(400, 21602, 'Message body is required.');
    const sid = `SM${randomBytes(16).toString('hex')}`;
    // RFC 2822 dates, as Twilio writes them.
    const now = new Date().toUTCString().replace('GMT', '+0000');
    return {
      status: 201,
      body: {
        account_sid: account,
        api_version: '2010-04-01',
        body: text,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: form.get('From'),
        messaging_service_sid: null,
        num_media: '0',
        num_segments: '1',
        price: null,
        price_unit: 'USD',
        sid,
        status: 'queued',
        subresource_uris: { media: `/2010-04-01/Accounts/${account}/Messages/${sid}/Media.json` },
        to,
        uri: `/2010-04-01/Accounts/${account}/Messages/${sid}.json`,
      },
    };
  });
}

/** A webhook delivery as Meta sends it: the JSON body and its `X-Hub-Signature-256`. */
export function signedWhatsappDelivery(appSecret: string, payload: unknown) {
  const body = JSON.stringify(payload);
  const signature = createHmac('sha256', appSecret).update(body).digest('hex');
  return { body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${signature}` } };
}

/** A webhook request as Twilio sends it to `url`: the form-encoded parameters and their `X-Twilio-Signature`. */
export function signedTwilioDelivery(authToken: string, url: string, params: Record<string, string>) {
  let signed = url;
  for (const name of Object.keys(params).sort()) signed += name + params[name];
  const signature = createHmac('sha1', authToken).update(signed).digest('base64');
  return { body: new URLSearchParams(params).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature } };
}
