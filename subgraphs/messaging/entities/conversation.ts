import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import type { Channel, MessageTemplate } from '../../kernel/outbox/entity.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/**
 * A customer's address on a channel (a phone number for SMS and WhatsApp, an email), linked to
 * members' customer once known; `optedOutAt` is set by STOP and cleared by START.
 */
export const Contact = tenantEntity({
  name: 'Contact',
  schema: 'messaging',
  tableName: 'contact',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    channel: p.text().$type<Channel>(),
    address: p.text(),
    customerId: p.uuid().nullable(),
    name: p.text().nullable(),
    optedOutAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  uniques: [{ name: 'contact_address_uniq', properties: ['companyId', 'channel', 'address'] }],
  indexes: [{ name: 'contact_customer_idx', properties: ['companyId', 'customerId'] }],
  checks: [{ name: 'contact_channel_check', expression: "channel in ('email', 'sms', 'whatsapp')" }],
});
export type Contact = InstanceType<typeof Contact.class>;

export const CONVERSATION_STATUSES = ['open', 'pending', 'snoozed', 'resolved'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** One conversation per contact: reopened by the customer's next message once resolved. */
export const Conversation = tenantEntity({
  name: 'Conversation',
  schema: 'messaging',
  tableName: 'conversation',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    contactId: p.manyToOne(Contact).mapToPk().deleteRule('cascade'),
    channel: p.text().$type<Channel>(),
    customerId: p.uuid().nullable(),
    status: p.text().$type<ConversationStatus>(),
    snoozedUntil: p.datetime().nullable(),
    /** A staff member (booking's), who answers it. */
    assigneeId: p.uuid().nullable(),
    priority: p.text().$type<Priority>(),
    /** Since the customer's oldest message not yet answered. */
    waitingSince: p.datetime().nullable(),
    lastMessageAt: p.datetime(),
    /** The customer's last message: WhatsApp takes free-form replies for 24 hours after it. */
    lastIncomingAt: p.datetime().nullable(),
    unreadCount: p.integer().default(0),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  uniques: [{ name: 'conversation_contact_uniq', properties: ['contactId'] }],
  indexes: [
    {
      name: 'conversation_company_idx',
      expression: 'create index conversation_company_idx on messaging.conversation (company_id, status, last_message_at desc)',
    },
  ],
  checks: [
    { name: 'conversation_status_check', expression: "status in ('open', 'pending', 'snoozed', 'resolved')" },
    { name: 'conversation_priority_check', expression: "priority in ('none', 'low', 'medium', 'high', 'urgent')" },
    { name: 'conversation_unread_count_check', expression: 'unread_count >= 0' },
  ],
});
export type Conversation = InstanceType<typeof Conversation.class>;

export const ENTRY_KINDS = ['incoming', 'outgoing', 'note'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];
export const AUTHOR_KINDS = ['customer', 'system', 'staff', 'agent', 'campaign'] as const;
export type AuthorKind = (typeof AUTHOR_KINDS)[number];

/**
 * A message of a conversation: the customer's (with the provider's id, unique, so a redelivered
 * webhook adds nothing), one of ours (its delivery record in the message log), or an internal note
 * only the merchant sees.
 */
export const ConversationMessage = tenantEntity({
  name: 'ConversationMessage',
  schema: 'messaging',
  tableName: 'conversation_message',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    conversationId: p.manyToOne(Conversation).mapToPk().deleteRule('cascade'),
    kind: p.text().$type<EntryKind>(),
    text: p.text().nullable(),
    template: p.json<MessageTemplate>().nullable(),
    providerMessageId: p.text().nullable(),
    outboxMessageId: p.uuid().nullable(),
    senderKind: p.text().$type<AuthorKind>(),
    senderId: p.text().nullable(),
    createdAt: p.datetime(),
  },
  uniques: [{ name: 'conversation_message_provider_uniq', properties: ['companyId', 'providerMessageId'] }],
  indexes: [
    {
      name: 'conversation_message_conversation_idx',
      expression: 'create index conversation_message_conversation_idx on messaging.conversation_message (conversation_id, created_at desc)',
    },
  ],
  checks: [
    { name: 'conversation_message_kind_check', expression: "kind in ('incoming', 'outgoing', 'note')" },
    { name: 'conversation_message_sender_kind_check', expression: "sender_kind in ('customer', 'system', 'staff', 'agent', 'campaign')" },
  ],
});
export type ConversationMessage = InstanceType<typeof ConversationMessage.class>;
