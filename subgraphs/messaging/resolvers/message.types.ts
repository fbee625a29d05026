/** GraphQL shape of the message log: every outgoing message with its status. */
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import type { Channel, MessageStatus } from '../../kernel/outbox/index.ts';
import type { SenderKind } from '../../kernel/outbox/entity.ts';
import { PageArgs, PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';

export const MessageChannelEnum = stateEnum<Channel>('MessageChannel', 'The channel a message goes out on.', {
  email: 'Email, through the platform’s SMTP server.',
  sms: 'SMS, through the company’s Twilio account.',
  whatsapp: 'WhatsApp, through the company’s number on the Cloud API.',
});

export const MessageStatusEnum = stateEnum<MessageStatus>('MessageStatus', 'Where an outgoing message is; it only moves forward.', {
  queued: 'Waiting to be sent (again at nextAttemptAt after a failed attempt).',
  sending: 'Being sent now.',
  sent: 'Taken by the provider.',
  delivered: 'The provider reported it delivered.',
  read: 'The provider reported it read (WhatsApp).',
  failed: 'Not sent, or not delivered: see error.',
  cancelled: 'Withdrawn before it was sent (its campaign was cancelled).',
});

export const SenderKindEnum = stateEnum<SenderKind>('MessageSenderKind', 'Who caused a message.', {
  system: 'The platform: sign-in codes, confirmations, notices.',
  staff: 'A staff member signed in to the dashboard.',
  agent: 'An agent or integration with an API key.',
  campaign: 'A campaign.',
});

@ObjectType('MessageSender', { description: 'Who caused a message, and their id: the API key, the session or the campaign.' })
export class MessageSenderNode {
  @Field(() => SenderKindEnum) kind!: SenderKind;
  @Field(() => ID, { nullable: true }) id?: string | null;
}

@ObjectType('MessageError', { description: 'Why the last attempt failed, in the provider’s words.' })
export class MessageErrorNode {
  @Field(() => String) message!: string;
  @Field(() => String, { nullable: true, description: 'The provider’s own code (an SMTP reply, a Cloud API or Twilio error code).' })
  code?: string | null;
  @Field(() => Boolean, { description: 'The address itself is bad: no further message is sent to it on the channel.' }) hardBounce!: boolean;
}

@ObjectType('Message', { description: 'An outgoing message and where it is.' })
export class MessageNode {
  @Field(() => ID) id!: string;
  @Field(() => MessageChannelEnum) channel!: Channel;
  @Field(() => String, { description: 'The address: an email or a phone number.' }) to!: string;
  @Field(() => String, { nullable: true }) subject?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The text (a template message: its name and parameters); null for one that carries a secret (a sign-in code, a personal link).',
  })
  text?: string | null;
  @Field(() => MessageStatusEnum) status!: MessageStatus;
  @Field(() => MessageSenderNode) sender!: MessageSenderNode;
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => ID, { nullable: true }) campaignId?: string | null;
  @Field(() => String, { nullable: true, description: 'smtp, twilio, whatsapp, or log in development.' }) provider?: string | null;
  @Field(() => String, { nullable: true, description: 'The provider’s id for it (a wamid, a Twilio SM… sid, a Message-ID).' })
  providerMessageId?: string | null;
  @Field(() => Int) attempts!: number;
  @Field(() => DateTime, { nullable: true }) nextAttemptAt?: Date | null;
  @Field(() => MessageErrorNode, { nullable: true }) error?: MessageErrorNode | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime, { nullable: true }) sentAt?: Date | null;
  @Field(() => DateTime, { nullable: true }) deliveredAt?: Date | null;
  @Field(() => DateTime, { nullable: true }) readAt?: Date | null;
  @Field(() => DateTime, { nullable: true }) failedAt?: Date | null;
}

export const MessagePage = PageOf(MessageNode, 'MessagePage');

@ArgsType()
export class MessageListArgs extends PageArgs {
  @Field(() => MessageChannelEnum, { nullable: true, description: 'Only messages on this channel.' }) channel?: Channel;
  @Field(() => MessageStatusEnum, { nullable: true, description: 'Only messages in this state.' }) status?: MessageStatus;
  @Field(() => ID, { nullable: true, description: 'Only the messages of this campaign.' }) campaignId?: string;
  @Field(() => ID, { nullable: true, description: 'Only the messages to this customer.' }) customerId?: string;
  @Field(() => String, { nullable: true, description: 'Only messages to this address (an email or a phone number).' }) to?: string;
}
