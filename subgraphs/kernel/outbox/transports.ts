import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Channel } from './entity.ts';

export interface OutgoingMessage {
  channel: Channel;
  to: string;
  subject: string | null;
  body: string;
}

export interface Transport {
  name: string;
  send(message: OutgoingMessage): Promise<void>;
}

/** Development transport: the message is written to the log (and readable at /dev/outbox). */
export const logTransport: Transport = {
  name: 'log',
  async send(m) {
    if (process.env.OUTBOX_LOG !== 'silent') console.log(`[outbox] ${m.channel} to ${m.to}: ${m.subject ?? ''} ${m.body.replace(/\s+/g, ' ').slice(0, 160)}`);
  },
};

export function smtpTransport(url: string, from: string): Transport {
  const mailer = nodemailer.createTransport(url);
  return {
    name: 'smtp',
    async send(m) {
      await mailer.sendMail({ from, to: m.to, subject: m.subject ?? '', text: m.body });
    },
  };
}

/** Email goes through SMTP when configured; SMS and WhatsApp use the log until a provider adapter is configured. */
export function transportsFor(config: Config): Record<Channel, Transport> {
  const email = config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : logTransport;
  return { email, sms: logTransport, whatsapp: logTransport };
}
