/** GraphQL shapes of campaigns and their deliveries. */
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { CampaignChannel, CampaignStatus, DeliveryStatus } from '../entities/campaign.ts';

export const CampaignChannelEnum = stateEnum<CampaignChannel>('CampaignChannel', 'How a campaign reaches customers.', {
  email: 'Email (subject and html).',
  sms: 'Text message (body).',
  whatsapp: 'WhatsApp (an approved template).',
});

export const CampaignStatusEnum = stateEnum<CampaignStatus>('CampaignStatus', 'Where a campaign is.', {
  DRAFT: 'Being written; nothing is sent.',
  SCHEDULED: 'Starts sending at scheduledAt.',
  SENDING: 'Messages are going out.',
  PAUSED: 'Stopped for now (by the business, after 100 failures in a row, or a schedule found 24 hours late); resume_campaign continues.',
  SENT: 'Every delivery is final.',
  CANCELLED: 'Stopped for good; unsent deliveries are cancelled.',
});

export const DeliveryStatusEnum = stateEnum<DeliveryStatus>('CampaignDeliveryStatus', 'Where one recipient of a campaign is.', {
  PENDING: 'Waiting for its turn at the campaign’s rate.',
  SENDING: 'Handed to messaging and being sent (tried again at nextAttemptAt after a failed attempt).',
  SENT: 'Accepted by the channel’s provider.',
  FAILED: 'Not sent after every attempt, or refused for good.',
  SKIPPED: 'Not sent: no address on the channel, unsubscribed, or a hard bounce (skipReason).',
  CANCELLED: 'Not sent: the campaign was cancelled or the customer deleted.',
});

@ObjectType('CampaignChannelConfig', { description: 'What the message says; the fields of its channel are set.' })
export class ChannelConfigNode {
  @Field(() => String, { nullable: true }) subject?: string | null;
  @Field(() => String, { nullable: true }) html?: string | null;
  @Field(() => String, { nullable: true }) text?: string | null;
  @Field(() => String, { nullable: true }) fromName?: string | null;
  @Field(() => String, { nullable: true }) replyTo?: string | null;
  @Field(() => String, { nullable: true }) body?: string | null;
  @Field(() => String, { nullable: true }) templateName?: string | null;
  @Field(() => String, { nullable: true }) language?: string | null;
  @Field(() => [String], { nullable: true }) parameters?: string[] | null;
}

@ObjectType('CampaignDeliveryCounts', { description: 'A campaign’s deliveries by status.' })
export class DeliveryCountsNode {
  @Field(() => Int) total!: number;
  @Field(() => Int) pending!: number;
  @Field(() => Int) sending!: number;
  @Field(() => Int) sent!: number;
  @Field(() => Int, { description: 'Of the sent: those the provider reported delivered (read ones included).' }) delivered!: number;
  @Field(() => Int, { description: 'Of the sent: those the provider reported read (WhatsApp).' }) read!: number;
  @Field(() => Int) failed!: number;
  @Field(() => Int) skipped!: number;
  @Field(() => Int) cancelled!: number;
}

@ObjectType('Campaign', { description: 'A message to a segment on one channel, and how its sending went.' })
export class CampaignNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => CampaignChannelEnum) channel!: CampaignChannel;
  @Field(() => String, { description: 'Who receives it: "segment".' }) recipientSource!: string;
  @Field(() => ID) segmentId!: string;
  @Field(() => ChannelConfigNode) channelConfig!: ChannelConfigNode;
  @Field(() => DateTime, { nullable: true }) scheduledAt?: Date | null;
  @Field(() => CampaignStatusEnum) status!: CampaignStatus;
  @Field(() => String, { nullable: true, description: 'Why it is PAUSED or CANCELLED.' }) statusReason?: string | null;
  @Field(() => DateTime, { nullable: true, description: 'When sending began.' }) startedAt?: Date | null;
  @Field(() => DateTime, { nullable: true, description: 'When it became SENT or CANCELLED.' }) finishedAt?: Date | null;
  @Field(() => DeliveryCountsNode) deliveries!: DeliveryCountsNode;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const CampaignPage = PageOf(CampaignNode, 'CampaignPage');

@ObjectType('CampaignDelivery', { description: 'One recipient of a campaign.' })
export class DeliveryNode {
  @Field(() => ID) customerId!: string;
  @Field(() => String, { nullable: true, description: 'The email or phone it goes to (null when the customer has none).' }) address?: string | null;
  @Field(() => DeliveryStatusEnum) status!: DeliveryStatus;
  @Field(() => String, { nullable: true, description: 'Why it was skipped or cancelled: NO_ADDRESS, UNSUBSCRIBED, HARD_BOUNCE, CUSTOMER_DELETED.' })
  skipReason?: string | null;
  @Field(() => Int) attempts!: number;
  @Field(() => DateTime, { nullable: true, description: 'When messaging tries again (SENDING after a failed attempt).' }) nextAttemptAt?: Date | null;
  @Field(() => String, { nullable: true }) lastError?: string | null;
  @Field(() => DateTime, { nullable: true }) sentAt?: Date | null;
  @Field(() => DateTime, { nullable: true, description: "The provider's delivery receipt." }) deliveredAt?: Date | null;
  @Field(() => DateTime, { nullable: true, description: 'The read receipt (WhatsApp).' }) readAt?: Date | null;
}

export const DeliveryPage = PageOf(DeliveryNode, 'CampaignDeliveryPage');

@ObjectType('DeletedCampaign', { description: 'A campaign that was deleted.' })
export class DeletedCampaignNode {
  @Field(() => ID) id!: string;
  @Field(() => Boolean) deleted!: boolean;
}

@ObjectType('CampaignTestSend', { description: 'A test send: the addresses the message went to.' })
export class TestSendNode {
  @Field(() => ID) campaignId!: string;
  @Field(() => [String]) sentTo!: string[];
}

@InputType({
  description:
    'The message, by channel: email needs subject and html; sms a body; whatsapp an approved template: templateName and language (with parameters). Merge tags: {{firstName}}, {{lastName}}, {{fullName}}, {{email}}, {{phone}}, {{unsubscribeUrl}}.',
})
export class ChannelConfigInput {
  @Field(() => String, { nullable: true, description: 'Email subject, at most 200 characters.' }) subject?: string;
  @Field(() => String, { nullable: true, description: 'Email HTML body; an unsubscribe link is added unless it places {{unsubscribeUrl}}.' }) html?: string;
  @Field(() => String, { nullable: true, description: 'Email plain-text alternative (optional).' }) text?: string;
  @Field(() => String, { nullable: true, description: 'Email sender name (optional), at most 100 characters.' }) fromName?: string;
  @Field(() => String, { nullable: true, description: 'Email Reply-To address (optional).' }) replyTo?: string;
  @Field(() => String, { nullable: true, description: 'SMS or WhatsApp text; an unsubscribe link is added unless it places {{unsubscribeUrl}}.' })
  body?: string;
  @Field(() => String, { nullable: true, description: 'WhatsApp approved template name (lower-case letters, digits, _).' }) templateName?: string;
  @Field(() => String, { nullable: true, description: 'WhatsApp template language, such as "en" or "en_US".' }) language?: string;
  @Field(() => [String], { nullable: true, description: 'WhatsApp template parameters in order, at most 20; merge tags allowed.' }) parameters?: string[];
}

@InputType({ description: 'A campaign; to change one, give only the fields to change.' })
export class CampaignInput {
  @Field(() => String, { nullable: true, description: 'Name for the business, at most 200 characters (required to create).' }) name?: string;
  @Field(() => CampaignChannelEnum, { nullable: true, description: 'email, sms or whatsapp (required to create).' }) channel?: CampaignChannel;
  @Field(() => String, { nullable: true, description: 'Who receives it: "segment" (the default).' }) recipientSource?: string;
  @Field(() => ID, { nullable: true, description: 'The segment to send to (required to create).' }) segmentId?: string;
  @Field(() => ChannelConfigInput, { nullable: true, description: 'The message for the channel (required to create).' }) channelConfig?: ChannelConfigInput;
  @Field(() => DateTime, { nullable: true, description: 'When to start sending (ISO-8601 with offset, in the future); required with status SCHEDULED.' })
  scheduledAt?: Date | null;
  @Field(() => CampaignStatusEnum, { nullable: true, description: 'DRAFT (the default) or SCHEDULED.' }) status?: CampaignStatus;
}

@ArgsType()
export class CampaignListArgs extends PageArgs {
  @Field(() => CampaignStatusEnum, { nullable: true, description: 'Only campaigns in this state.' }) status?: CampaignStatus;
}

@ArgsType()
export class DeliveryListArgs extends PageArgs {
  @Field(() => ID, { description: 'The campaign.' }) campaignId!: string;
  @Field(() => DeliveryStatusEnum, { nullable: true, description: 'Only deliveries in this state.' }) status?: DeliveryStatus;
}
