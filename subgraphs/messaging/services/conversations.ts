/**
 * The inbox: conversations with customers and what the merchant (a staff member in the dashboard,
 * an agent with a key) does with them — reply, write first, assign, set the status, add notes.
 * Every message out goes through the one message log (kernel/outbox) in the same transaction as
 * its place in the conversation, after the providers' rules: a customer who opted out (STOP) gets
 * nothing on that channel, and WhatsApp takes free-form text only within 24 hours of the
 * customer's last message, an approved template at any time.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { AppError, badInput, notFound } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { asJson, enqueueMessage, senderOf, type Channel } from '../../kernel/outbox/index.ts';
import { pageRequest, type Page } from '../../kernel/pagination.ts';
import type { Meter } from '../../kernel/plan-catalogue.ts';
import { consumeQuota, requireFeature } from '../../kernel/plans.ts';
import type { ConversationStatus, Priority } from '../entities/conversation.ts';
import { openConversation } from './contacts.ts';
import { customers } from './customers.ts';
import { fillTemplate, templateFor } from './templates.ts';

/** WhatsApp's customer service window: free-form messages for 24 hours after the customer's last one. */
export const WINDOW_MS = 24 * 3600_000;

const METER_OF: Record<Channel, Meter> = { email: 'emailMessages', sms: 'smsMessages', whatsapp: 'whatsappMessages' };

export interface Content {
  text?: string | null;
  template?: { name: string; language: string; parameters: string[] } | null;
  /** Email only. */
  subject?: string | null;
}

export interface ConversationFilter {
  status?: ConversationStatus | null;
  channel?: Channel | null;
  assigneeId?: string | null;
  customerId?: string | null;
  /** Only those with messages the merchant has not read (true) or none (false). */
  unread?: boolean | null;
  page?: number | null;
  limit?: number | null;
  offset?: number | null;
}

function conversations(ctx: RequestContext) {
  return ctx.query
    .selectFrom('messaging.conversation as c')
    .innerJoin('messaging.contact as k', 'k.id', 'c.contactId')
    .selectAll('c')
    .select((eb) => [
      'k.address',
      'k.name',
      'k.optedOutAt',
      eb
        .selectFrom('messaging.conversation_message as m')
        .select('m.text')
        .whereRef('m.conversationId', '=', 'c.id')
        .where('m.kind', '<>', 'note')
        .orderBy('m.createdAt', 'desc')
        .limit(1)
        .as('lastMessageText'),
    ]);
}
export type ConversationRow = Awaited<ReturnType<ReturnType<typeof conversations>['executeTakeFirstOrThrow']>>;

export async function listConversations(ctx: RequestContext, filter: ConversationFilter): Promise<Page<ConversationRow>> {
  let select = conversations(ctx).orderBy('c.lastMessageAt', 'desc').orderBy('c.id', 'desc');
  if (filter.status) select = select.where('c.status', '=', filter.status);
  if (filter.channel) select = select.where('c.channel', '=', filter.channel);
  if (filter.assigneeId) select = select.where('c.assigneeId', '=', filter.assigneeId);
  if (filter.customerId) select = select.where('c.customerId', '=', filter.customerId);
  if (filter.unread != null) select = select.where('c.unreadCount', filter.unread ? '>' : '=', 0);
  return ctx.page(select, pageRequest(filter));
}

export async function findConversation(ctx: RequestContext, conversationId: string): Promise<ConversationRow> {
  const row = await ctx.first(conversations(ctx).where('c.id', '=', conversationId));
  if (!row) throw notFound('Conversation');
  return row;
}

function entries(ctx: RequestContext) {
  return ctx.query
    .selectFrom('messaging.conversation_message as m')
    .leftJoin('kernel.outbox_message as o', 'o.id', 'm.outboxMessageId')
    .selectAll('m')
    .select(['o.status as deliveryStatus', 'o.lastError as deliveryError', 'o.errorCode as deliveryErrorCode', 'o.hardBounce as deliveryHardBounce']);
}
export type EntryRow = Awaited<ReturnType<ReturnType<typeof entries>['executeTakeFirstOrThrow']>>;

/** A conversation's messages and notes, newest first; reading them marks the conversation read. */
export async function conversationEntries(
  ctx: RequestContext,
  conversationId: string,
  request: { page?: number | null; limit?: number | null; offset?: number | null },
): Promise<Page<EntryRow>> {
  return ctx.page(entries(ctx).where('m.conversationId', '=', conversationId).orderBy('m.createdAt', 'desc').orderBy('m.id', 'desc'), pageRequest(request));
}

/** A merchant opened the conversation: its unread count goes to zero. */
export async function markRead(ctx: RequestContext, conversationId: string): Promise<void> {
  await ctx.query.updateTable('messaging.conversation').set({ unreadCount: 0 }).where('id', '=', conversationId).where('unreadCount', '>', 0).execute();
}

/** Locks the conversation for a change (and reads its contact). */
async function lockConversation(tx: RequestContext, conversationId: string) {
  const row = await tx.first(
    tx.query
      .selectFrom('messaging.conversation as c')
      .innerJoin('messaging.contact as k', 'k.id', 'c.contactId')
      .select(['c.id', 'c.channel', 'c.customerId', 'c.status', 'c.lastIncomingAt', 'k.address', 'k.optedOutAt', 'k.id as contactId'])
      .where('c.id', '=', conversationId)
      // The conversation's row only: the inbound job locks the contact first, then the conversation.
      .forUpdate('c'),
  );
  if (!row) throw notFound('Conversation');
  return row;
}

type Locked = Awaited<ReturnType<typeof lockConversation>>;

/** The one way a merchant's message goes out: the rules, the quota, the message log, the conversation. */
async function sendIn(tx: RequestContext, conversation: Locked, content: Content): Promise<EntryRow> {
  const now = tx.now();
  const channel = conversation.channel;
  if (!content.text && !content.template) throw badInput('text', 'is required (or a template: templateName, language, parameters)');
  if (content.text && content.template) throw badInput('text', 'goes alone or a template does, not both');
  if (content.template && channel !== 'whatsapp') throw badInput('templateName', 'is for WhatsApp; SMS and email take text');
  if (conversation.optedOutAt) {
    throw new AppError(
      'CONSENT_REQUIRED',
      `The customer opted out of ${channel === 'sms' ? 'SMS' : 'WhatsApp'} (STOP); nothing is sent until they opt in again`,
      {
        channel,
        optedOutAt: conversation.optedOutAt.toISOString(),
      },
    );
  }
  if (channel === 'whatsapp' && !content.template) {
    const windowEnd = conversation.lastIncomingAt ? new Date(conversation.lastIncomingAt.getTime() + WINDOW_MS) : null;
    if (!windowEnd || windowEnd <= now) {
      throw new AppError(
        'TEMPLATE_REQUIRED',
        windowEnd
          ? `WhatsApp takes free-form text only within 24 hours of the customer's last message; that window ended at ${windowEnd.toISOString()}: send an approved template`
          : 'The customer has not written on WhatsApp: only an approved template can start the conversation',
        { field: 'text', windowEndedAt: windowEnd?.toISOString() ?? null },
      );
    }
  }
  if (channel !== 'email') await requireFeature(tx, channel, channel === 'sms' ? 'SMS' : 'WhatsApp');
  let text = content.text ?? '';
  if (content.template) {
    const template = await templateFor(tx, content.template.name, content.template.language, content.template.parameters);
    text = fillTemplate(template.body, content.template.parameters);
  }
  await consumeQuota(tx, METER_OF[channel], 1, `${channel} messages`);
  const sender = senderOf(tx);
  const outboxMessageId = enqueueMessage(tx, {
    companyId: tx.companyId,
    channel,
    to: conversation.address,
    subject: channel === 'email' ? (content.subject ?? undefined) : undefined,
    body: text,
    template: content.template ?? undefined,
    customerId: conversation.customerId ?? undefined,
    sender,
  });
  const id = newId();
  await tx.query
    .insertInto('messaging.conversation_message')
    .values({
      id,
      conversationId: conversation.id,
      kind: 'outgoing',
      text,
      template: asJson(content.template ?? undefined),
      outboxMessageId,
      senderKind: sender.kind,
      senderId: sender.id ?? null,
      createdAt: now,
    })
    .execute();
  await tx.query
    .updateTable('messaging.conversation')
    .set({ waitingSince: null, unreadCount: 0, lastMessageAt: now, updatedAt: now })
    .where('id', '=', conversation.id)
    .execute();
  return (await tx.first(entries(tx).where('m.id', '=', id)))!;
}

export async function replyToConversation(ctx: RequestContext, conversationId: string, content: Content): Promise<EntryRow> {
  return ctx.transaction(async (tx) => sendIn(tx, await lockConversation(tx, conversationId), content));
}

/** Writes to a customer on a channel: their address from members, their conversation there found or started. */
export async function sendMessage(ctx: RequestContext, customerId: string, channel: Channel, content: Content): Promise<EntryRow> {
  const customer = await customers.find(ctx, customerId);
  if (!customer) throw notFound('Customer');
  const address = channel === 'email' ? customer.email : customer.phone;
  if (!address) throw badInput('channel', `the customer has no ${channel === 'email' ? 'email address' : 'phone number'}`);
  return ctx.transaction(async (tx) => {
    const { conversationId } = await openConversation(tx, { channel, address, customerId: customer.customerId, name: null, at: tx.now() });
    return sendIn(tx, await lockConversation(tx, conversationId), content);
  });
}

export async function assignConversation(ctx: RequestContext, conversationId: string, assigneeId: string | null, priority?: Priority | null) {
  await ctx.transaction(async (tx) => {
    await lockConversation(tx, conversationId);
    await tx.query
      .updateTable('messaging.conversation')
      .set({ assigneeId, ...(priority && { priority }), updatedAt: tx.now() })
      .where('id', '=', conversationId)
      .execute();
  });
  return findConversation(ctx, conversationId);
}

export const SNOOZE_QUEUE = 'messaging.wake';

/** open, pending, resolved, or snoozed until a time (the conversation opens again then, or at the customer's next message). */
export async function setConversationStatus(ctx: RequestContext, conversationId: string, status: ConversationStatus, snoozedUntil?: Date | null) {
  await ctx.transaction(async (tx) => {
    const now = tx.now();
    await lockConversation(tx, conversationId);
    if (status === 'snoozed') {
      if (!snoozedUntil) throw badInput('snoozedUntil', 'is required to snooze');
      if (snoozedUntil <= now) throw badInput('snoozedUntil', 'must be in the future');
      tx.runAt(SNOOZE_QUEUE, snoozedUntil, { companyId: tx.companyId, conversationId });
    } else if (snoozedUntil) throw badInput('snoozedUntil', 'goes with status snoozed only');
    await tx.query
      .updateTable('messaging.conversation')
      .set({ status, snoozedUntil: status === 'snoozed' ? snoozedUntil! : null, updatedAt: now })
      .where('id', '=', conversationId)
      .execute();
  });
  return findConversation(ctx, conversationId);
}

/** A snooze ran out: the conversation opens again (unless it moved meanwhile). */
export async function wake(ctx: RequestContext, conversationId: string): Promise<void> {
  const now = ctx.now();
  await ctx.query
    .updateTable('messaging.conversation')
    .set({ status: 'open', snoozedUntil: null, updatedAt: now })
    .where('id', '=', conversationId)
    .where('status', '=', 'snoozed')
    .where('snoozedUntil', '<=', now)
    .execute();
}

/** An internal note: seen by the merchant in the conversation, never sent. */
export async function addNote(ctx: RequestContext, conversationId: string, text: string): Promise<EntryRow> {
  return ctx.transaction(async (tx) => {
    await lockConversation(tx, conversationId);
    const sender = senderOf(tx);
    const id = newId();
    await tx.query
      .insertInto('messaging.conversation_message')
      .values({ id, conversationId, kind: 'note', text, senderKind: sender.kind, senderId: sender.id ?? null, createdAt: tx.now() })
      .execute();
    return (await tx.first(entries(tx).where('m.id', '=', id)))!;
  });
}
