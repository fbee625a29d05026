import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { listMessages, type MessageRow } from '../services/messages.ts';
import { MessageListArgs, MessageNode, MessagePage } from './message.types.ts';

const messageNode = (m: MessageRow): MessageNode => ({
  id: m.id,
  channel: m.channel,
  to: m.recipient,
  subject: m.subject,
  text: m.confidential ? null : m.body,
  status: m.status,
  sender: { kind: m.senderKind, id: m.senderId },
  customerId: m.customerId,
  campaignId: m.campaignId,
  provider: m.provider,
  providerMessageId: m.providerMessageId,
  attempts: m.attempts,
  nextAttemptAt: m.status === 'queued' ? m.nextAttemptAt : null,
  error: m.lastError ? { message: m.lastError, code: m.errorCode, hardBounce: m.hardBounce } : null,
  createdAt: m.createdAt,
  sentAt: m.sentAt,
  deliveredAt: m.deliveredAt,
  readAt: m.readAt,
  failedAt: m.failedAt,
});

@Resolver(() => MessageNode)
export class MessageResolver {
  @Requires('merchant', 'messaging')
  @Query(() => MessagePage, {
    description: 'Every outgoing message of the company (codes, confirmations, campaigns, replies), newest first, with its status.',
  })
  async messages(@Ctx() ctx: RequestContext, @Args(() => MessageListArgs) args: MessageListArgs) {
    const page = await listMessages(ctx, args);
    return { ...page, items: page.items.map(messageNode) };
  }
}
