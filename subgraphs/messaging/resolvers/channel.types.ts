/** GraphQL shape of the company's messaging channels. */
import { Field, InputType, ObjectType } from 'type-graphql';
import { DateTime } from '../../kernel/scalars.ts';

@ObjectType('MessagingChannel', { description: 'A channel the company messages its customers on. A token it gave is never shown.' })
export class MessagingChannelNode {
  @Field(() => String, { description: 'email, sms or whatsapp.' }) channel!: string;
  @Field(() => Boolean, { description: 'Whether messages can go out on it: email always (the platform’s), SMS and WhatsApp once connected.' })
  connected!: boolean;
  @Field(() => String, { nullable: true, description: 'WhatsApp: the Cloud API phone number id.' }) phoneNumberId?: string | null;
  @Field(() => String, { nullable: true, description: 'SMS: the Twilio account SID.' }) accountSid?: string | null;
  @Field(() => String, { nullable: true, description: 'SMS: the sender number.' }) fromNumber?: string | null;
  @Field(() => DateTime, { nullable: true, description: 'When it was connected.' }) connectedAt?: Date | null;
  @Field(() => DateTime, { nullable: true, description: 'When its account was last changed.' }) updatedAt?: Date | null;
}

@ObjectType('MessagingChannels', { description: 'Every channel, connected or not.' })
export class MessagingChannelsNode {
  @Field(() => [MessagingChannelNode]) items!: MessagingChannelNode[];
}

@InputType({ description: 'A WhatsApp Business number on the Cloud API.' })
export class ConnectWhatsappInput {
  @Field(() => String, { description: 'The phone number id Meta gives the number (digits).' }) phoneNumberId!: string;
  @Field(() => String, { description: 'A system user access token with whatsapp_business_messaging; stored sealed, never shown.' }) accessToken!: string;
}

@InputType({ description: 'A Twilio account and one of its numbers.' })
export class ConnectSmsInput {
  @Field(() => String, { description: 'The account SID (AC…).' }) accountSid!: string;
  @Field(() => String, { description: 'The account’s auth token; stored sealed, never shown.' }) authToken!: string;
  @Field(() => String, { description: 'The sender number, in international form (+4915…).' }) fromNumber!: string;
}
