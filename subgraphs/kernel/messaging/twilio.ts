/**
 * SMS through Twilio's Messages API (`2010-04-01`): sending, checking the `X-Twilio-Signature` of
 * what Twilio posts to our webhooks, and reading it (incoming messages and status callbacks).
 */
import { createHmac } from 'node:crypto';
import { constantTimeEqual, isTransientStatus, postToProvider, ProviderFailure, type DeliveryStatus, type MessageProvider } from './providers.ts';

interface TwilioSettings {
  /** `https://api.twilio.com`. */
  apiUrl: string;
  accountSid: string;
  authToken: string;
  /** The sending number (E.164) or alphanumeric sender id. */
  from: string;
  /** Where Twilio posts the message's status changes (our webhook); none: no receipts. */
  statusCallback?: string;
}

/**
 * 21211: the To number is not a valid phone number; 21614: it is not a mobile number (a landline
 * cannot take an SMS); 21610: the recipient replied STOP, and Twilio refuses every message until
 * they send START. None of them clears up by trying again.
 */
export const HARD_BOUNCE_CODES: ReadonlySet<number> = new Set([21211, 21614, 21610]);

export function twilioProvider(settings: TwilioSettings): MessageProvider {
  const url = `${settings.apiUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const headers = {
    authorization: `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`,
    'content-type': 'application/x-www-form-urlencoded',
  };
  return {
    name: 'twilio',
    async send(message) {
      // SMS has no templates: a message that has only one has nothing an SMS can carry.
      if (!message.text) throw new ProviderFailure('SMS needs text: a template alone cannot be sent by SMS', true);
      const form = new URLSearchParams({ To: message.to, From: settings.from, Body: message.text });
      if (settings.statusCallback) form.set('StatusCallback', settings.statusCallback);
      const answer = await postToProvider('Twilio', url, headers, form.toString());
      if (answer.ok) {
        if (typeof answer.json.sid === 'string' && answer.json.sid) return { providerMessageId: answer.json.sid };
        // Taken, as far as the status says; sending again could deliver it twice.
        throw new ProviderFailure(`Twilio answered ${answer.status} without a message sid`, true);
      }
      const code = typeof answer.json.code === 'number' ? answer.json.code : undefined;
      const hardBounce = code !== undefined && HARD_BOUNCE_CODES.has(code);
      const detail = typeof answer.json.message === 'string' ? answer.json.message : answer.text.slice(0, 200);
      throw new ProviderFailure(
        `Twilio answered ${answer.status}: ${detail}`,
        hardBounce || !isTransientStatus(answer.status),
        hardBounce,
        code === undefined ? undefined : String(code),
      );
    },
  };
}

/**
 * Twilio signs a webhook with the auth token: base64 of the HMAC-SHA1 of the full URL it called
 * (scheme, host, path and query, as configured) followed by each POST parameter's name and value,
 * sorted by name, with nothing between them.
 */
export function verifyTwilioSignature(authToken: string, url: string, params: Record<string, string>, header: string | undefined): boolean {
  if (!header) return false;
  const signed =
    url +
    Object.keys(params)
      .sort()
      .map((name) => name + params[name])
      .join('');
  return constantTimeEqual(header, createHmac('sha1', authToken).update(signed).digest('base64'));
}

export type TwilioEvent =
  | { kind: 'message'; from: string; to: string; providerMessageId: string; text: string }
  | { kind: 'status'; providerMessageId: string; status: DeliveryStatus; errorCode?: string };

/** Twilio's message states as delivery statuses; queued, sending and the rest say nothing a sender acts on. */
const STATUS_OF: Record<string, DeliveryStatus> = { sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed', undelivered: 'failed' };

/**
 * One webhook request's form parameters: an incoming message (its `SmsStatus` is `received`) or a
 * status callback of one of ours (`MessageStatus`). Null for a state not worth an event and for
 * anything unrecognised.
 */
export function parseTwilioWebhook(params: Record<string, string>): TwilioEvent | null {
  const providerMessageId = params.MessageSid || params.SmsSid;
  if (!providerMessageId) return null;
  const state = params.MessageStatus ?? params.SmsStatus;
  if (state !== undefined && state !== 'received' && state !== 'receiving') {
    const status = Object.hasOwn(STATUS_OF, state) ? STATUS_OF[state] : undefined;
    if (!status) return null;
    return { kind: 'status', providerMessageId, status, ...(params.ErrorCode && { errorCode: params.ErrorCode }) };
  }
  if (params.Body === undefined || !params.From || !params.To) return null;
  return { kind: 'message', from: params.From, to: params.To, providerMessageId, text: params.Body };
}
