/** GraphQL shape of the inbox: conversations, their messages and notes, and the inputs of the merchant's actions. */
import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { Channel, MessageStatus } from '../../kernel/outbox/index.ts';
import { PageArgs, PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';
import { stateEnum } from '../../kernel/states.ts';
import type { AuthorKind, ConversationStatus, EntryKind, Priority } from '../entities/conversation.ts';
import { MessageChannelEnum, MessageErrorNode, MessageStatusEnum } from './message.types.ts';

export const ConversationStatusEnum = stateEnum<ConversationStatus>('ConversationStatus', 'Where a conversation is.', {
  open: 'Needs an answer, or is being answered.',
  pending: 'Waiting on something other than the customer (a bot, another team).',
  snoozed: 'Set aside until snoozedUntil (or the customer’s next message).',
  resolved: 'Done; the customer’s next message opens it again.',
});

export const PriorityEnum = stateEnum<Priority>('ConversationPriority', 'How urgent a conversation is.', {
  none: 'No priority set.',
  low: 'Low.',
  medium: 'Medium.',
  high: 'High.',
  urgent: 'Urgent.',
});

export const EntryKindEnum = stateEnum<EntryKind>('ConversationMessageKind', 'What a conversation message is.', {
  incoming: 'The customer’s.',
  outgoing: 'Ours, sent to the customer.',
  note: 'An internal note: the merchant’s only, never sent.',
});

export const AuthorKindEnum = stateEnum<AuthorKind>('ConversationAuthorKind', 'Who wrote a conversation message.', {
  customer: 'The customer.',
  system: 'The platform.',
  staff: 'A staff member in the dashboard.',
  agent: 'An agent or integration with an API key.',
  campaign: 'A campaign.',
});

@ObjectType('ConversationAuthor', { description: 'Who wrote it, and their id (the customer, the API key, the session).' })
export class AuthorNode {
  @Field(() => AuthorKindEnum) kind!: AuthorKind;
  @Field(() => ID, { nullable: true }) id?: string | null;
}

@ObjectType('ConversationMessage', { description: 'A message of a conversation, in or out, or an internal note.' })
export class EntryNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) conversationId!: string;
  @Field(() => EntryKindEnum) kind!: EntryKind;
  @Field(() => String, { nullable: true, description: 'What it says (a template: its body with the parameters filled in).' }) text?: string | null;
  @Field(() => String, { nullable: true, description: 'The WhatsApp template it was sent as.' }) templateName?: string | null;
  @Field(() => AuthorNode) author!: AuthorNode;
  @Field(() => MessageStatusEnum, { nullable: true, description: 'Outgoing: where its delivery is (list_messages has the whole record).' })
  status?: MessageStatus | null;
  @Field(() => ID, { nullable: true, description: 'Outgoing: its record in the message log.' }) messageId?: string | null;
  @Field(() => MessageErrorNode, { nullable: true }) error?: MessageErrorNode | null;
  @Field(() => DateTime) createdAt!: Date;
}

export const EntryPage = PageOf(EntryNode, 'ConversationMessagePage');

@ObjectType('ConversationContact', { description: 'The customer’s address on the conversation’s channel.' })
export class ContactNode {
  @Field(() => String, { description: 'A phone number (E.164) or an email.' }) address!: string;
  @Field(() => String, { nullable: true, description: 'The name their WhatsApp profile gives.' }) name?: string | null;
  @Field(() => DateTime, { nullable: true, description: 'When they opted out of the channel (STOP); null while they may be written to.' })
  optedOutAt?: Date | null;
}

@ObjectType('Conversation', { description: 'A conversation with a customer on one channel.' })
export class ConversationNode {
  @Field(() => ID) id!: string;
  @Field(() => MessageChannelEnum) channel!: Channel;
  @Field(() => ID, { nullable: true, description: 'Members’ customer (null until the sender is known).' }) customerId?: string | null;
  @Field(() => ContactNode) contact!: ContactNode;
  @Field(() => ConversationStatusEnum) status!: ConversationStatus;
  @Field(() => DateTime, { nullable: true }) snoozedUntil?: Date | null;
  @Field(() => ID, { nullable: true, description: 'The staff member who answers it.' }) assigneeId?: string | null;
  @Field(() => PriorityEnum) priority!: Priority;
  @Field(() => DateTime, { nullable: true, description: 'Since the customer’s oldest message not yet answered.' }) waitingSince?: Date | null;
  @Field(() => String, { nullable: true, description: 'The last message’s text.' }) lastMessage?: string | null;
  @Field(() => DateTime) lastMessageAt!: Date;
  @Field(() => DateTime, { nullable: true, description: 'WhatsApp: free-form replies until 24 hours after this.' }) lastIncomingAt?: Date | null;
  @Field(() => DateTime, { nullable: true, description: 'WhatsApp: when free-form replies stop being accepted (null: only templates).' })
  replyWindowEndsAt?: Date | null;
  @Field(() => Int, { description: 'The customer’s messages since the merchant last opened it.' }) unreadCount!: number;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const ConversationPage = PageOf(ConversationNode, 'ConversationPage');

@ArgsType()
export class EntryListArgs extends PageArgs {}

@ArgsType()
export class ConversationListArgs extends PageArgs {
  @Field(() => ConversationStatusEnum, { nullable: true, description: 'Only conversations in this state.' }) status?: ConversationStatus;
  @Field(() => MessageChannelEnum, { nullable: true, description: 'Only conversations on this channel.' }) channel?: Channel;
  @Field(() => ID, { nullable: true, description: 'Only conversations assigned to this staff member.' }) assigneeId?: string;
  @Field(() => ID, { nullable: true, description: 'Only the conversations of this customer.' }) customerId?: string;
  @Field(() => Boolean, { nullable: true, description: 'true: only those with unread messages; false: only those without.' }) unread?: boolean;
}

@InputType({ description: 'What to send: text, or on WhatsApp an approved template with its parameters.' })
export class MessageContentInput {
  @Field(() => String, { nullable: true, description: 'The text (WhatsApp: within 24 hours of the customer’s last message).' }) text?: string;
  @Field(() => String, { nullable: true, description: 'Email: the subject.' }) subject?: string;
  @Field(() => String, { nullable: true, description: 'WhatsApp: an approved template’s name (list_message_templates).' }) templateName?: string;
  @Field(() => String, { nullable: true, description: 'The template’s language (en, en_US …).' }) language?: string;
  @Field(() => [String], { nullable: true, description: 'The template’s parameters, {{1}} first.' }) parameters?: string[];
}
