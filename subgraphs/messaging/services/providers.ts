/**
 * Which provider carries a company's message on a channel: email through the platform's SMTP
 * server; SMS and WhatsApp through the company's own connected account (Twilio, the Cloud API).
 * Outside production a channel with no provider writes to the log instead, so development and
 * tests run without accounts; in production such a message fails, naming the tool that connects it.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { logProvider, smtpProvider } from '../../kernel/messaging/email.ts';
import { ProviderFailure, type MessageProvider } from '../../kernel/messaging/providers.ts';
import { twilioProvider } from '../../kernel/messaging/twilio.ts';
import { whatsappProvider } from '../../kernel/messaging/whatsapp.ts';
import type { Channel } from '../../kernel/outbox/index.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { openSecret } from '../../kernel/secrets.ts';

/** Where Twilio posts incoming messages and status callbacks (services/webhooks.ts). */
export const TWILIO_WEBHOOK_PATH = '/webhooks/twilio/sms';

/** One SMTP pool per runtime, kept open between messages. */
const smtpOf = new WeakMap<Runtime, MessageProvider>();

function emailProvider(runtime: Runtime): MessageProvider {
  const { smtpUrl, mailFrom } = runtime.config;
  if (!smtpUrl) return logProvider;
  let smtp = smtpOf.get(runtime);
  if (!smtp) smtpOf.set(runtime, (smtp = smtpProvider(smtpUrl, mailFrom)));
  return smtp;
}

const notConnected = (channel: 'sms' | 'whatsapp') =>
  new ProviderFailure(
    `${channel === 'sms' ? 'SMS' : 'WhatsApp'} is not connected: connect the company's account with ${channel === 'sms' ? 'connect_sms' : 'connect_whatsapp'}`,
    true,
  );

/**
 * The providers of the company `ctx` is scoped to (none: the platform's own messages, email only),
 * read once per call of `providers` and reused for every message of a delivery job.
 */
export async function providersOf(ctx: RequestContext): Promise<(channel: Channel) => MessageProvider> {
  const { config } = ctx;
  const connections = ctx.principal.companyId
    ? await ctx.all(ctx.query.selectFrom('messaging.channel_connection').select(['channel', 'phoneNumberId', 'accountSid', 'fromNumber', 'sealedSecret']))
    : [];
  const built = new Map<Channel, MessageProvider>();
  return (channel) => {
    if (channel === 'email') return emailProvider(ctx.runtime);
    let provider = built.get(channel);
    if (provider) return provider;
    const connection = connections.find((c) => c.channel === channel);
    if (!connection) {
      if (config.production) throw notConnected(channel);
      return logProvider;
    }
    const secret = openSecret(config, connection.sealedSecret);
    provider =
      channel === 'sms'
        ? twilioProvider({
            apiUrl: config.messaging.twilioApiUrl,
            accountSid: connection.accountSid!,
            authToken: secret,
            from: connection.fromNumber!,
            statusCallback: `${config.publicUrl}${TWILIO_WEBHOOK_PATH}`,
          })
        : whatsappProvider({ graphUrl: config.messaging.whatsappGraphUrl, phoneNumberId: connection.phoneNumberId!, accessToken: secret });
    built.set(channel, provider);
    return provider;
  };
}
