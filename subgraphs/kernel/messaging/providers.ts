/**
 * What every provider adapter (SMTP, WhatsApp, Twilio, the development log) offers (send one message, get the provider's id
 * back) and how it fails: a `ProviderFailure` says whether trying again can help and whether the
 * address itself is bad, which is all a sender needs to decide between retrying, giving up and
 * suppressing the address. The adapters speak each provider's own wire format (whatsapp.ts,
 * twilio.ts); the few steps they share are here.
 */
import { timingSafeEqual } from 'node:crypto';
import type { MessageExtras } from '../outbox/entity.ts';

export interface OutgoingProviderMessage {
  to: string;
  text?: string;
  template?: { name: string; language: string; parameters: string[] };
  /** Email only: the subject, the html part and the sender's name, reply address and unsubscribe link. */
  subject?: string;
  html?: string;
  extras?: MessageExtras;
  /** The sender's, for its own records: neither the Cloud API nor Twilio's Messages API takes an idempotency key, so a repeat must be stopped before `send`. */
  idempotencyKey: string;
}

export interface ProviderResult {
  providerMessageId: string;
}

export class ProviderFailure extends Error {
  constructor(
    message: string,
    /** Trying again cannot help: the provider refused the request itself (a 4xx other than 408 and 429). */
    readonly permanent: boolean,
    /** The address itself is bad (no such number, not reachable on the channel, opted out): suppress it. */
    readonly hardBounce = false,
    /** The provider's own error code, when it gave one (Cloud API `error.code`, Twilio `code`). */
    readonly providerCode?: string,
  ) {
    super(message);
  }
}

/** Where a sent message got to, as both providers' webhooks report it (their other states are left out). */
export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface MessageProvider {
  /** `smtp`, `twilio`, `whatsapp` or `log`: recorded on each message it sends. */
  readonly name: string;
  send(message: OutgoingProviderMessage): Promise<ProviderResult>;
}

/** Statuses after which the same request can succeed later: a timeout, throttling, or the provider's own trouble. */
export const isTransientStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/** A JSON object read defensively: providers' answers and webhooks are not ours to trust, so anything else reads as `{}`. */
export const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export interface ProviderAnswer {
  status: number;
  ok: boolean;
  /** The answer's JSON object, or `{}` when it was not one (a proxy's HTML error page, say). */
  json: Record<string, unknown>;
  text: string;
}

/**
 * One POST to a provider, bounded at 15 s. No answer at all (refused, reset, timed out) is a
 * transient failure: the provider may or may not have taken the message, and only a retry can
 * tell the sender more.
 */
export async function postToProvider(provider: string, url: string, headers: Record<string, string>, body: string): Promise<ProviderAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000) });
    text = await response.text();
  } catch (error) {
    throw new ProviderFailure(`${provider} unreachable: ${error instanceof Error ? error.message : String(error)}`, false);
  }
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: response.status, ok: response.ok, json: asRecord(json), text };
}

/** Compares a secret-derived value without leaking through timing how much of it matched. */
export function constantTimeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
