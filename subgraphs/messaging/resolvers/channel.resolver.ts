import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { parse } from '../../kernel/schemas.ts';
import { channelConnections, connectSms, connectWhatsapp, type ChannelRow } from '../services/channels.ts';
import { SmsAccountInput, WhatsappAccountInput } from './channel.inputs.ts';
import { ConnectSmsInput, ConnectWhatsappInput, MessagingChannelNode, MessagingChannelsNode } from './channel.types.ts';

const channelNode = (row: ChannelRow): MessagingChannelNode => ({
  channel: row.channel,
  connected: true,
  phoneNumberId: row.phoneNumberId,
  accountSid: row.accountSid,
  fromNumber: row.fromNumber,
  connectedAt: row.connectedAt,
  updatedAt: row.updatedAt,
});

@Resolver(() => MessagingChannelNode)
export class ChannelResolver {
  @Requires('merchant', 'messaging')
  @Query(() => MessagingChannelsNode, { description: 'The company’s channels: email, SMS and WhatsApp, and whether each is connected.' })
  async messagingChannels(@Ctx() ctx: RequestContext): Promise<MessagingChannelsNode> {
    const connected = await channelConnections(ctx);
    const email: MessagingChannelNode = { channel: 'email', connected: true };
    const other = (['sms', 'whatsapp'] as const).map((channel) => {
      const row = connected.get(channel);
      return row ? channelNode(row) : { channel, connected: false };
    });
    return { items: [email, ...other] };
  }

  @Requires('merchant', 'messaging')
  @Mutation(() => MessagingChannelNode, {
    description: 'Connects the company’s WhatsApp Business number (the whatsapp feature), or replaces the one connected.',
  })
  async connectWhatsapp(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => ConnectWhatsappInput, { description: 'The number and its token.' }) input: ConnectWhatsappInput,
  ): Promise<MessagingChannelNode> {
    return channelNode(await connectWhatsapp(ctx, parse(WhatsappAccountInput, input)));
  }

  @Requires('merchant', 'messaging')
  @Mutation(() => MessagingChannelNode, {
    description: 'Connects the company’s Twilio account and sender number for SMS (the sms feature), or replaces the one connected.',
  })
  async connectSms(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => ConnectSmsInput, { description: 'The account, its token and the sender number.' }) input: ConnectSmsInput,
  ): Promise<MessagingChannelNode> {
    return channelNode(await connectSms(ctx, parse(SmsAccountInput, input)));
  }
}
