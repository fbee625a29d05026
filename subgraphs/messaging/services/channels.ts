/**
 * A company's messaging channels: email is the platform's own (SMTP), always there; WhatsApp and
 * SMS are connected with the company's own provider account, each a feature of the plan. The
 * token a company gives is sealed before it is stored and never read back to any client.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { requireFeature } from '../../kernel/plans.ts';
import { sealSecret } from '../../kernel/secrets.ts';
import type { RowOf } from '../../kernel/tables.ts';
import type { ConnectedChannel } from '../entities/channel-connection.ts';

/** A WhatsApp Business number on the Cloud API, as the edge checked it (resolvers/channel.inputs.ts). */
export interface WhatsappAccount {
  phoneNumberId: string;
  accessToken: string;
}

/** A Twilio account and one of its sender numbers, as the edge checked them. */
export interface SmsAccount {
  accountSid: string;
  authToken: string;
  fromNumber: string;
}

export type ChannelRow = RowOf<'messaging.channel_connection'>;

export async function connectWhatsapp(ctx: RequestContext, account: WhatsappAccount): Promise<ChannelRow> {
  await requireFeature(ctx, 'whatsapp', 'WhatsApp');
  return connect(ctx, 'whatsapp', { phoneNumberId: account.phoneNumberId, accountSid: null, fromNumber: null }, account.accessToken);
}

export async function connectSms(ctx: RequestContext, account: SmsAccount): Promise<ChannelRow> {
  await requireFeature(ctx, 'sms', 'SMS');
  return connect(ctx, 'sms', { phoneNumberId: null, accountSid: account.accountSid, fromNumber: account.fromNumber }, account.authToken);
}

/** Connects the channel, or replaces its account: one connection per company and channel. */
async function connect(
  ctx: RequestContext,
  channel: ConnectedChannel,
  settings: Pick<ChannelRow, 'phoneNumberId' | 'accountSid' | 'fromNumber'>,
  secret: string,
): Promise<ChannelRow> {
  const sealedSecret = sealSecret(ctx.config, secret);
  return ctx.transaction(async (tx) => {
    const now = tx.now();
    return tx.query
      .insertInto('messaging.channel_connection')
      .values({ id: newId(), channel, ...settings, sealedSecret, connectedAt: now, updatedAt: now })
      .onConflict((oc) =>
        oc.columns(['companyId', 'channel']).doUpdateSet((eb) => ({
          phoneNumberId: eb.ref('excluded.phoneNumberId'),
          accountSid: eb.ref('excluded.accountSid'),
          fromNumber: eb.ref('excluded.fromNumber'),
          sealedSecret: eb.ref('excluded.sealedSecret'),
          updatedAt: eb.ref('excluded.updatedAt'),
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** The company's connections, by channel. */
export async function channelConnections(ctx: RequestContext): Promise<Map<ConnectedChannel, ChannelRow>> {
  const rows = await ctx.all(ctx.query.selectFrom('messaging.channel_connection').selectAll());
  return new Map(rows.map((row) => [row.channel, row]));
}
