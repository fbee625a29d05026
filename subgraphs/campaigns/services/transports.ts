/**
 * How campaign messages leave: email through SMTP (nodemailer), SMS and WhatsApp through an HTTP
 * provider configured by URL and token, and the log transport in development. A failure says
 * whether trying again can help (a 4xx answer cannot) and whether the address itself is bad (a
 * hard bounce), which suppresses it.
 */
import nodemailer from 'nodemailer';
import type { Config, ProviderSettings } from '../../kernel/config.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import type { CampaignChannel } from '../entities/campaign.ts';
import type { RenderedMessage } from './content.ts';

export interface OutgoingCampaignMessage extends RenderedMessage {
  channel: CampaignChannel;
  to: string;
  fromName?: string;
  replyTo?: string;
  unsubscribeUrl: string;
  /** `campaignId:customerId`: the provider's idempotency key, so a repeat after a crash is not sent twice. */
  idempotencyKey: string;
}

export interface CampaignTransport {
  name: string;
  send(message: OutgoingCampaignMessage): Promise<{ providerMessageId: string | null }>;
}

export class SendFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly hardBounce = false,
  ) {
    super(message);
  }
}

export const logTransport: CampaignTransport = {
  name: 'log',
  async send(m) {
    if (process.env.OUTBOX_LOG !== 'silent')
      console.log(`[campaigns] ${m.channel} to ${m.to}: ${m.subject ?? m.template?.name ?? ''} ${(m.text ?? m.body ?? '').replace(/\s+/g, ' ').slice(0, 120)}`);
    return { providerMessageId: null };
  },
};

/**
 * SMTP with RFC 8058 one-click unsubscribe (`List-Unsubscribe` with the signed link,
 * `List-Unsubscribe-Post`) and a Message-ID made from the idempotency key, so a receiving system
 * sees a repeat as the same message. A 5xx reply is permanent; 550, 551 and 553 (no such mailbox)
 * are hard bounces.
 */
export function smtpTransport(url: string, from: string): CampaignTransport {
  const mailer = nodemailer.createTransport(url + (url.includes('?') ? '&' : '?') + 'pool=true&maxConnections=4');
  const domain = from.split('@')[1] ?? 'localhost';
  return {
    name: 'smtp',
    async send(m) {
      try {
        const info = await mailer.sendMail({
          from: m.fromName ? { name: m.fromName, address: from } : from,
          to: m.to,
          replyTo: m.replyTo,
          subject: m.subject ?? '',
          html: m.html,
          text: m.text,
          messageId: `<${m.idempotencyKey.replace(':', '.')}@${domain}>`,
          headers: { 'List-Unsubscribe': `<${m.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        });
        return { providerMessageId: info.messageId ?? null };
      } catch (thrown) {
        // nodemailer's SMTP errors carry the server's reply code and text.
        const error = thrown as Error & { responseCode?: number; response?: string };
        const code = Number(error.responseCode);
        if (code >= 500) throw new SendFailure(String(error.response ?? error.message), true, [550, 551, 553].includes(code));
        throw new SendFailure(String(error.message ?? error), false);
      }
    },
  };
}

/**
 * An HTTP messaging provider: a JSON POST with the Bearer token and an `Idempotency-Key` header;
 * the answer's `id` is kept. 2xx is sent; 408, 429 and 5xx (or no answer) are tried again; another
 * 4xx is permanent, and 404 or 410 (no such number) a hard bounce.
 */
export function httpProviderTransport(channel: 'sms' | 'whatsapp', provider: ProviderSettings): CampaignTransport {
  return {
    name: `http-${channel}`,
    async send(m) {
      let answer: Response;
      try {
        answer = await fetch(provider.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${provider.token}`, 'idempotency-key': m.idempotencyKey },
          body: JSON.stringify({ channel, to: m.to, body: m.body, template: m.template, reference: m.idempotencyKey, unsubscribeUrl: m.unsubscribeUrl }),
          signal: AbortSignal.timeout(15_000),
        });
      } catch (error) {
        throw new SendFailure(`provider unreachable: ${error instanceof Error ? error.message : String(error)}`, false);
      }
      const text = await answer.text();
      if (answer.ok) {
        let id: unknown = null;
        try {
          const json = JSON.parse(text);
          id = json?.id ?? json?.messageId ?? null;
        } catch {
          // A provider answering 2xx without JSON still took the message.
        }
        return { providerMessageId: id == null ? null : String(id) };
      }
      const detail = `provider answered ${answer.status}: ${text.slice(0, 200)}`;
      if (answer.status === 408 || answer.status === 429 || answer.status >= 500) throw new SendFailure(detail, false);
      throw new SendFailure(detail, true, answer.status === 404 || answer.status === 410);
    },
  };
}

export function campaignTransports(config: Config): Record<CampaignChannel, CampaignTransport> {
  const { sms, whatsapp } = config.campaigns;
  return {
    email: config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : logTransport,
    sms: sms ? httpProviderTransport('sms', sms) : logTransport,
    whatsapp: whatsapp ? httpProviderTransport('whatsapp', whatsapp) : logTransport,
  };
}

const byRuntime = new WeakMap<Runtime, Record<CampaignChannel, CampaignTransport>>();

/** One set of transports per runtime (the SMTP pool is kept open between batches). */
export function transportFor(runtime: Runtime, channel: CampaignChannel): CampaignTransport {
  let transports = byRuntime.get(runtime);
  if (!transports) byRuntime.set(runtime, (transports = campaignTransports(runtime.config)));
  return transports[channel];
}
