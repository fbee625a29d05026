/**
 * Email through SMTP (nodemailer), and the development log that stands in for any channel with no
 * provider.
 */
import nodemailer from 'nodemailer';
import { ProviderFailure, type MessageProvider } from './providers.ts';

/**
 * SMTP, pooled. A message with an unsubscribe link gets RFC 8058 one-click unsubscribe
 * (`List-Unsubscribe` with the signed link, `List-Unsubscribe-Post`); the Message-ID is made from
 * the idempotency key, so a receiving system sees a repeat after a crash as the same message. A
 * 5xx reply is permanent; 550, 551 and 553 (no such mailbox) are hard bounces.
 */
export function smtpProvider(url: string, from: string): MessageProvider {
  const mailer = nodemailer.createTransport(url + (url.includes('?') ? '&' : '?') + 'pool=true&maxConnections=4');
  const domain = from.split('@')[1] ?? 'localhost';
  return {
    name: 'smtp',
    async send(m) {
      const extras = m.extras ?? {};
      try {
        const info = await mailer.sendMail({
          from: extras.fromName ? { name: extras.fromName, address: from } : from,
          to: m.to,
          replyTo: extras.replyTo,
          subject: m.subject ?? '',
          html: m.html,
          text: m.text,
          messageId: `<${m.idempotencyKey.replace(/:/g, '.')}@${domain}>`,
          headers: extras.unsubscribeUrl ? { 'List-Unsubscribe': `<${extras.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {},
        });
        return { providerMessageId: info.messageId };
      } catch (thrown) {
        // nodemailer's SMTP errors carry the server's reply code and text.
        const error = thrown as Error & { responseCode?: number; response?: string };
        const code = Number(error.responseCode);
        if (code >= 500) throw new ProviderFailure(String(error.response ?? error.message), true, [550, 551, 553].includes(code), String(code));
        throw new ProviderFailure(String(error.message ?? error), false);
      }
    },
  };
}

/** Development: the message is written to the process's log (and readable at /dev/outbox); `OUTBOX_LOG=silent` quiets it. */
export const logProvider: MessageProvider = {
  name: 'log',
  async send(m) {
    if (process.env.OUTBOX_LOG !== 'silent') {
      const what = m.subject ?? (m.template ? `template ${m.template.name}` : '');
      console.log(`[outbox] to ${m.to}: ${what} ${(m.text ?? '').replace(/\s+/g, ' ').slice(0, 160)}`);
    }
    return { providerMessageId: `log-${m.idempotencyKey}` };
  },
};
