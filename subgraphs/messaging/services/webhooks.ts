/**
 * The providers' webhooks (messaging's HttpRoutes): WhatsApp's `GET /webhooks/whatsapp` handshake
 * and `POST /webhooks/whatsapp` deliveries, signed with the platform's app secret; Twilio's
 * `POST /webhooks/twilio/sms`, signed with the auth token of the account it names. Each is
 * verified against the bytes received before anything is read; a bad signature is 401 and nothing
 * is stored. A verified delivery is acknowledged at once and its events handled by a job
 * (services/inbound.ts), one per company.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestContext } from '../../kernel/context.ts';
import { readRaw, sendText } from '../../kernel/http.ts';
import { parseTwilioWebhook, verifyTwilioSignature } from '../../kernel/messaging/twilio.ts';
import { parseWhatsappWebhook, verifyWhatsappSignature, whatsappChallenge } from '../../kernel/messaging/whatsapp.ts';
import type { HttpRoutes } from '../../kernel/module.ts';
import { queryAcrossTenants } from '../../kernel/query.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { openSecret } from '../../kernel/secrets.ts';
import { INBOUND_QUEUE, type InboundEvent } from './inbound.ts';
import { TWILIO_WEBHOOK_PATH } from './providers.ts';

const WHATSAPP_PATH = '/webhooks/whatsapp';

export const webhookRoutes: HttpRoutes = { prefixes: [WHATSAPP_PATH, TWILIO_WEBHOOK_PATH], handle };

async function handle(runtime: Runtime, req: IncomingMessage, res: ServerResponse, path: string): Promise<unknown> {
  if (path === WHATSAPP_PATH) return whatsapp(runtime, req, res);
  if (path === TWILIO_WEBHOOK_PATH) return twilio(runtime, req, res);
  return sendText(res, 404, 'Not found');
}

/** Queues each company's events for the inbound job, in one transaction. */
async function queue(runtime: Runtime, byCompany: Map<string, InboundEvent[]>) {
  if (!byCompany.size) return;
  await RequestContext.system(runtime, null).transaction(async (tx) => {
    for (const [companyId, events] of byCompany) tx.runAt(INBOUND_QUEUE, null, { companyId, events });
  });
}

async function whatsapp(runtime: Runtime, req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const { whatsappAppSecret, whatsappVerifyToken } = runtime.config.messaging;
  if (req.method === 'GET') {
    const challenge = whatsappVerifyToken ? whatsappChallenge(new URL(req.url ?? '/', 'http://x').searchParams, whatsappVerifyToken) : null;
    return challenge === null ? sendText(res, 403, 'Verification failed') : sendText(res, 200, challenge);
  }
  if (req.method !== 'POST') return sendText(res, 405, 'GET or POST');
  const raw = await readRaw(req);
  if (raw === null) return sendText(res, 413, 'Body too large');
  if (!whatsappAppSecret || !verifyWhatsappSignature(whatsappAppSecret, raw, header(req, 'x-hub-signature-256'))) {
    return sendText(res, 401, 'Invalid signature');
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return sendText(res, 400, 'Not JSON');
  }
  const events = parseWhatsappWebhook(body);
  // The phone number id names the company; a number no company connected is acknowledged and dropped.
  const numbers = [...new Set(events.map((e) => e.phoneNumberId))];
  const owners = numbers.length
    ? await acrossCompanies(runtime)
        .selectFrom('messaging.channel_connection')
        .select(['companyId', 'phoneNumberId'])
        .where('channel', '=', 'whatsapp')
        .where('phoneNumberId', 'in', numbers)
        .execute()
    : [];
  const companyOf = new Map(owners.map((o) => [o.phoneNumberId!, o.companyId]));
  const byCompany = new Map<string, InboundEvent[]>();
  for (const event of events) {
    const companyId = companyOf.get(event.phoneNumberId);
    if (!companyId) continue;
    const inbound: InboundEvent =
      event.kind === 'message'
        ? {
            kind: 'message',
            channel: 'whatsapp',
            from: `+${event.from}`,
            providerMessageId: event.providerMessageId,
            text: event.text,
            at: event.timestamp.toISOString(),
            name: event.profileName ?? null,
          }
        : {
            kind: 'status',
            channel: 'whatsapp',
            providerMessageId: event.providerMessageId,
            status: event.status,
            at: event.timestamp.toISOString(),
            error: event.error ? `${event.error.title}`.slice(0, 500) : null,
            errorCode: event.error ? String(event.error.code) : null,
          };
    byCompany.set(companyId, [...(byCompany.get(companyId) ?? []), inbound]);
  }
  await queue(runtime, byCompany);
  return sendText(res, 200, 'EVENT_RECEIVED');
}

async function twilio(runtime: Runtime, req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  if (req.method !== 'POST') return sendText(res, 405, 'POST only');
  const raw = await readRaw(req);
  if (raw === null) return sendText(res, 413, 'Body too large');
  const params = Object.fromEntries(new URLSearchParams(raw));
  // Twilio signs with the auth token of the account it names: that account's company, if any.
  const account = params.AccountSid
    ? await acrossCompanies(runtime)
        .selectFrom('messaging.channel_connection')
        .select(['companyId', 'sealedSecret'])
        .where('channel', '=', 'sms')
        .where('accountSid', '=', params.AccountSid)
        .executeTakeFirst()
    : undefined;
  // The URL Twilio called, as configured there: the platform's public address and this path.
  const url = `${runtime.config.publicUrl}${req.url ?? TWILIO_WEBHOOK_PATH}`;
  if (!account || !verifyTwilioSignature(openSecret(runtime.config, account.sealedSecret), url, params, header(req, 'x-twilio-signature'))) {
    return sendText(res, 401, 'Invalid signature');
  }
  const event = parseTwilioWebhook(params);
  const at = runtime.clock.now();
  if (event) {
    const inbound: InboundEvent =
      event.kind === 'message'
        ? {
            kind: 'message',
            channel: 'sms',
            from: event.from,
            providerMessageId: event.providerMessageId,
            text: event.text,
            at: new Date(at).toISOString(),
            name: null,
          }
        : {
            kind: 'status',
            channel: 'sms',
            providerMessageId: event.providerMessageId,
            status: event.status,
            at: new Date(at).toISOString(),
            error: event.errorCode ? `Twilio error ${event.errorCode}` : null,
            errorCode: event.errorCode ?? null,
          };
    await queue(runtime, new Map([[account.companyId, [inbound]]]));
  }
  // An empty TwiML answer: nothing is sent back on Twilio's side.
  res.writeHead(200, { 'content-type': 'text/xml' });
  return res.end('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
}

/** The providers' webhooks name the company by its number or account: looked up across every company. */
const acrossCompanies = (runtime: Runtime) => queryAcrossTenants(runtime.db.orm.em.fork()).query;

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
