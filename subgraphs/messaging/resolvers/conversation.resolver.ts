import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { DateTime } from '../../kernel/scalars.ts';
import { id, parse, text as textSchema } from '../../kernel/schemas.ts';
import type { ConversationStatus, Priority } from '../entities/conversation.ts';
import type { Channel } from '../../kernel/outbox/index.ts';
import * as inbox from '../services/conversations.ts';
import { conversationId, ContentInput, snoozeUntil, staffId } from './conversation.inputs.ts';
import {
  ConversationListArgs,
  ConversationNode,
  ConversationPage,
  ConversationStatusEnum,
  EntryNode,
  EntryListArgs,
  EntryPage,
  MessageContentInput,
  PriorityEnum,
} from './conversation.types.ts';
import { MessageChannelEnum } from './message.types.ts';

export const conversationNode = (c: inbox.ConversationRow): ConversationNode => ({
  id: c.id,
  channel: c.channel,
  customerId: c.customerId,
  contact: { address: c.address, name: c.name, optedOutAt: c.optedOutAt },
  status: c.status,
  snoozedUntil: c.snoozedUntil,
  assigneeId: c.assigneeId,
  priority: c.priority,
  waitingSince: c.waitingSince,
  lastMessage: c.lastMessageText,
  lastMessageAt: c.lastMessageAt,
  lastIncomingAt: c.lastIncomingAt,
  replyWindowEndsAt: c.channel === 'whatsapp' && c.lastIncomingAt ? new Date(c.lastIncomingAt.getTime() + inbox.WINDOW_MS) : null,
  unreadCount: c.unreadCount,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

export const entryNode = (m: inbox.EntryRow): EntryNode => ({
  id: m.id,
  conversationId: m.conversationId,
  kind: m.kind,
  text: m.text,
  templateName: m.template?.name ?? null,
  author: { kind: m.senderKind, id: m.senderId },
  status: m.deliveryStatus ?? null,
  messageId: m.outboxMessageId,
  error: m.deliveryError ? { message: m.deliveryError, code: m.deliveryErrorCode, hardBounce: m.deliveryHardBounce ?? false } : null,
  createdAt: m.createdAt,
});

/** The inbox: conversations with customers on SMS, WhatsApp and email, and what the merchant does with them. */
@Resolver(() => ConversationNode)
export class ConversationResolver {
  @Requires('merchant', 'messaging')
  @Query(() => ConversationPage, { description: 'The company’s conversations, the latest message first.' })
  async conversations(@Ctx() ctx: RequestContext, @Args(() => ConversationListArgs) args: ConversationListArgs) {
    if (args.assigneeId) parse(staffId(), args.assigneeId, 'assigneeId');
    const page = await inbox.listConversations(ctx, args);
    return { ...page, items: page.items.map(conversationNode) };
  }

  @Requires('merchant', 'messaging')
  @Query(() => ConversationNode, { description: 'One conversation; opening it marks it read. Its messages and notes are in `messages`.' })
  async conversation(
    @Ctx() ctx: RequestContext,
    @Arg('conversationId', () => ID, { description: 'The conversation.' }) conversationIdArg: string,
  ): Promise<ConversationNode> {
    const found = await inbox.findConversation(ctx, parse(conversationId(), conversationIdArg, 'conversationId'));
    await inbox.markRead(ctx, found.id);
    return { ...conversationNode(found), unreadCount: 0 };
  }

  @FieldResolver(() => EntryPage, { description: 'Its messages and internal notes, newest first.' })
  async messages(@Ctx() ctx: RequestContext, @Root() conversation: ConversationNode, @Args(() => EntryListArgs) args: EntryListArgs) {
    const found = await inbox.conversationEntries(ctx, conversation.id, args);
    return { ...found, items: found.items.map(entryNode) };
  }

  @Requires('merchant', 'messaging')
  @Mutation(() => EntryNode, {
    description:
      'Answers the customer in the conversation: text, or on WhatsApp outside the 24-hour window an approved template (409 TEMPLATE_REQUIRED otherwise); 409 CONSENT_REQUIRED when they opted out.',
  })
  async replyToConversation(
    @Ctx() ctx: RequestContext,
    @Arg('conversationId', () => ID, { description: 'The conversation.' }) conversationIdArg: string,
    @Arg('input', () => MessageContentInput, { description: 'What to send.' }) input: MessageContentInput,
  ): Promise<EntryNode> {
    return entryNode(await inbox.replyToConversation(ctx, parse(conversationId(), conversationIdArg, 'conversationId'), parse(ContentInput, input)));
  }

  @Requires('merchant', 'messaging')
  @Mutation(() => EntryNode, { description: 'Writes to a customer on a channel, in their conversation there (started if there is none).' })
  async sendMessage(
    @Ctx() ctx: RequestContext,
    @Arg('customerId', () => ID, { description: 'The customer.' }) customerId: string,
    @Arg('channel', () => MessageChannelEnum, { description: 'email, sms or whatsapp.' }) channel: Channel,
    @Arg('input', () => MessageContentInput, { description: 'What to send.' }) input: MessageContentInput,
  ): Promise<EntryNode> {
    return entryNode(await inbox.sendMessage(ctx, parse(id('customer'), customerId, 'customerId'), channel, parse(ContentInput, input)));
  }

  @Requires('merchant', 'messaging')
  @Mutation(() => ConversationNode, { description: 'Gives the conversation to a staff member (null: to nobody), and optionally a priority.' })
  async assignConversation(
    @Ctx() ctx: RequestContext,
    @Arg('conversationId', () => ID, { description: 'The conversation.' }) conversationIdArg: string,
    @Arg('assigneeId', () => ID, { nullable: true, description: 'The staff member; null to unassign.' }) assigneeId: string | null,
    @Arg('priority', () => PriorityEnum, { nullable: true, description: 'none, low, medium, high or urgent.' }) priority?: Priority | null,
  ): Promise<ConversationNode> {
    const conversation = parse(conversationId(), conversationIdArg, 'conversationId');
    const assignee = assigneeId == null ? null : parse(staffId(), assigneeId, 'assigneeId');
    return conversationNode(await inbox.assignConversation(ctx, conversation, assignee, priority));
  }

  @Requires('merchant', 'messaging')
  @Mutation(() => ConversationNode, { description: 'Resolves, reopens, sets pending, or snoozes the conversation until a time.' })
  async setConversationStatus(
    @Ctx() ctx: RequestContext,
    @Arg('conversationId', () => ID, { description: 'The conversation.' }) conversationIdArg: string,
    @Arg('status', () => ConversationStatusEnum, { description: 'open, pending, snoozed or resolved.' }) status: ConversationStatus,
    @Arg('snoozedUntil', () => DateTime, { nullable: true, description: 'With snoozed: when it opens again.' }) snoozedUntil?: Date | null,
  ): Promise<ConversationNode> {
    const until = snoozedUntil == null ? null : parse(snoozeUntil(), snoozedUntil, 'snoozedUntil');
    return conversationNode(await inbox.setConversationStatus(ctx, parse(conversationId(), conversationIdArg, 'conversationId'), status, until));
  }

  @Requires('merchant', 'messaging')
  @Mutation(() => EntryNode, { description: 'Adds an internal note to the conversation: the merchant’s only, never sent to the customer.' })
  async addConversationNote(
    @Ctx() ctx: RequestContext,
    @Arg('conversationId', () => ID, { description: 'The conversation.' }) conversationIdArg: string,
    @Arg('text', () => String, { description: 'The note.' }) text: string,
  ): Promise<EntryNode> {
    return entryNode(await inbox.addNote(ctx, parse(conversationId(), conversationIdArg, 'conversationId'), parse(textSchema(4096), text, 'text')));
  }
}
