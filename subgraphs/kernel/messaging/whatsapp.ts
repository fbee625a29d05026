/**
 * WhatsApp through Meta's Cloud API: sending a text or a template message, checking what Meta
 * posts to the webhook (the `X-Hub-Signature-256` signature, the GET handshake) and reading it
 * (incoming messages and the statuses of ours).
 */
import { createHmac } from 'node:crypto';
import {
  asRecord,
  constantTimeEqual,
  isTransientStatus,
  postToProvider,
  ProviderFailure,
  type DeliveryStatus,
  type MessageProvider,
  type OutgoingProviderMessage,
} from './providers.ts';

interface WhatsappSettings {
  /** With the Graph API version: `https://graph.facebook.com/v21.0`. */
  graphUrl: string;
  phoneNumberId: string;
  accessToken: string;
}

/**
 * 131026, message undeliverable: the number is not on WhatsApp, or its owner has not accepted the
 * terms or runs a client too old to receive business messages; nothing we send to it gets through.
 * 131030 (not on a test number's allowed list) and 131009 (a parameter not valid) say nothing about
 * the address, so they stay plain permanent failures.
 */
export const HARD_BOUNCE_CODES: ReadonlySet<number> = new Set([131026]);

/** Throttling comes as HTTP 400 with these codes (app calls, account, a number's throughput, one sender–recipient pair); later succeeds. */
const THROTTLED_CODES = new Set([4, 80007, 130429, 131056]);

function requestBody(message: OutgoingProviderMessage): Record<string, unknown> {
  // The Cloud API takes the number as digits only, without the + of E.164.
  const to = message.to.replace(/\D/g, '');
  // A template goes first when both are given: outside the 24-hour window after the customer's last
  // message only a template is delivered.
  if (message.template) {
    const { name, language, parameters } = message.template;
    const components = parameters.length ? [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }] : undefined;
    return { messaging_product: 'whatsapp', to, type: 'template', template: { name, language: { code: language }, ...(components && { components }) } };
  }
  if (!message.text) throw new ProviderFailure('A WhatsApp message needs a text or a template', true);
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { preview_url: false, body: message.text } };
}

export function whatsappProvider(settings: WhatsappSettings): MessageProvider {
  const url = `${settings.graphUrl.replace(/\/+$/, '')}/${encodeURIComponent(settings.phoneNumberId)}/messages`;
  const headers = { authorization: `Bearer ${settings.accessToken}`, 'content-type': 'application/json' };
  return {
    name: 'whatsapp',
    async send(message) {
      const answer = await postToProvider('WhatsApp', url, headers, JSON.stringify(requestBody(message)));
      if (answer.ok) {
        const id = asRecord(Array.isArray(answer.json.messages) ? answer.json.messages[0] : undefined).id;
        if (typeof id === 'string' && id) return { providerMessageId: id };
        // Taken, as far as the status says; sending again could deliver it twice.
        throw new ProviderFailure(`WhatsApp answered ${answer.status} without a message id`, true);
      }
      const error = asRecord(answer.json.error);
      const code = typeof error.code === 'number' ? error.code : undefined;
      const hardBounce = code !== undefined && HARD_BOUNCE_CODES.has(code);
      const transient = !hardBounce && (isTransientStatus(answer.status) || (code !== undefined && THROTTLED_CODES.has(code)));
      const detail = typeof error.message === 'string' ? error.message : answer.text.slice(0, 200);
      throw new ProviderFailure(`WhatsApp answered ${answer.status}: ${detail}`, !transient, hardBounce, code === undefined ? undefined : String(code));
    },
  };
}

/**
 * Meta signs each delivery with the app secret: `sha256=<hex HMAC-SHA256 of the body>`. The body is
 * the one received, before any JSON parsing (a re-serialised object would not match).
 */
export function verifyWhatsappSignature(appSecret: string, rawBody: string, header: string | undefined): boolean {
  if (!header) return false;
  return constantTimeEqual(header, `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`);
}

/** The GET with which Meta checks a webhook address: echo `hub.challenge` only to the one who knows our verify token. */
export function whatsappChallenge(query: URLSearchParams, verifyToken: string): string | null {
  const token = query.get('hub.verify_token');
  if (query.get('hub.mode') !== 'subscribe' || token === null || !constantTimeEqual(token, verifyToken)) return null;
  return query.get('hub.challenge');
}

export type WhatsappEvent =
  | { kind: 'message'; phoneNumberId: string; from: string; providerMessageId: string; timestamp: Date; text: string; profileName?: string }
  | {
      kind: 'status';
      phoneNumberId: string;
      providerMessageId: string;
      status: DeliveryStatus;
      timestamp: Date;
      recipient: string;
      error?: { code: number; title: string };
    };

const isDeliveryStatus = (value: unknown): value is DeliveryStatus => value === 'sent' || value === 'delivered' || value === 'read' || value === 'failed';

const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.map(asRecord) : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Meta's timestamps are Unix seconds as strings. */
function dateOf(value: unknown): Date | undefined {
  const seconds = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(seconds) ? new Date(seconds * 1000) : undefined;
}

/** What the customer wrote, by the message's type: the text, the label of a tapped button or list row, or a media caption. */
function messageText(message: Record<string, unknown>): string {
  const type = text(message.type) ?? '';
  const content = asRecord(message[type]);
  if (type === 'text') return text(content.body) ?? '';
  if (type === 'button') return text(content.text) ?? '';
  if (type === 'interactive') return text(asRecord(content.button_reply).title) ?? text(asRecord(content.list_reply).title) ?? '';
  return text(content.caption) ?? '';
}

/**
 * The events of one delivery to the webhook. Meta batches (entries × changes × messages and
 * statuses), sends other fields to the same address, and adds properties over time: what is not a
 * message or one of the four statuses, or lacks what an event needs, is left out, and nothing throws.
 */
export function parseWhatsappWebhook(body: unknown): WhatsappEvent[] {
  const delivery = asRecord(body);
  if (delivery.object !== 'whatsapp_business_account') return [];
  const events: WhatsappEvent[] = [];
  for (const entry of list(delivery.entry)) {
    for (const change of list(entry.changes)) {
      if (change.field !== 'messages') continue;
      const value = asRecord(change.value);
      const phoneNumberId = text(asRecord(value.metadata).phone_number_id);
      if (!phoneNumberId) continue;
      const contacts = list(value.contacts);
      for (const message of list(value.messages)) {
        const from = text(message.from);
        const providerMessageId = text(message.id);
        const timestamp = dateOf(message.timestamp);
        if (!from || !providerMessageId || !timestamp) continue;
        const contact = contacts.find((c) => c.wa_id === from) ?? (contacts.length === 1 ? contacts[0] : {});
        const profileName = text(asRecord(contact.profile).name);
        events.push({ kind: 'message', phoneNumberId, from, providerMessageId, timestamp, text: messageText(message), ...(profileName && { profileName }) });
      }
      for (const status of list(value.statuses)) {
        const providerMessageId = text(status.id);
        const state = status.status;
        const timestamp = dateOf(status.timestamp);
        const recipient = text(status.recipient_id);
        if (!providerMessageId || !isDeliveryStatus(state) || !timestamp || !recipient) continue;
        const failure = list(status.errors)[0];
        const error =
          failure && typeof failure.code === 'number' ? { code: failure.code, title: text(failure.title) ?? text(failure.message) ?? '' } : undefined;
        events.push({ kind: 'status', phoneNumberId, providerMessageId, status: state, timestamp, recipient, ...(error && { error }) });
      }
    }
  }
  return events;
}
