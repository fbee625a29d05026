import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../ids.ts';

export const CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * Where a message is: `queued` (written, waiting for its job), `sending` (a worker holds it until
 * `leaseUntil`), `sent` (the provider took it), `delivered` and `read` (the provider's receipts),
 * `failed` (with the provider's error), `cancelled` (withdrawn before it was sent). It only moves
 * forward: a late `sent` receipt never undoes `read`.
 */
export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Who caused a message: the platform itself (codes, confirmations), a staff member, an agent's key, a campaign. */
export const SENDER_KINDS = ['system', 'staff', 'agent', 'campaign'] as const;
export type SenderKind = (typeof SENDER_KINDS)[number];

/** A WhatsApp template message: an approved template's name, language and body parameters. */
export interface MessageTemplate {
  name: string;
  language: string;
  parameters: string[];
}

/** What an email carries besides its text: the sender's name, a reply address, the one-click unsubscribe link. */
export interface MessageExtras {
  fromName?: string;
  replyTo?: string;
  unsubscribeUrl?: string;
}

/**
 * The one log of outgoing messages: every message any subgraph sends is a row here, written in the
 * transaction of the change that causes it together with its delivery job, and delivered by
 * messaging (subgraphs/messaging/services/delivery.ts).
 */
export const OutboxMessage = defineEntity({
  name: 'OutboxMessage',
  schema: 'kernel',
  tableName: 'outbox_message',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    companyId: p.uuid().nullable(),
    channel: p.text().$type<Channel>(),
    recipient: p.text(),
    subject: p.text().nullable(),
    body: p.text(),
    html: p.text().nullable(),
    template: p.json<MessageTemplate>().nullable(),
    extras: p.json<MessageExtras>().nullable(),
    customerId: p.uuid().nullable(),
    campaignId: p.uuid().nullable(),
    senderKind: p.text().$type<SenderKind>().default('system'),
    senderId: p.text().nullable(),
    /** Unique per company: the same key twice is one message (a campaign's `campaignId:customerId`). */
    idempotencyKey: p.text().nullable(),
    /** It carries a secret (a sign-in code, a personal link): the merchant's list shows that it was sent, never its text. */
    confidential: p.boolean().default(false),
    status: p.text().$type<MessageStatus>().default('queued'),
    attempts: p.integer().default(0),
    provider: p.text().nullable(),
    providerMessageId: p.text().nullable(),
    lastError: p.text().nullable(),
    errorCode: p.text().nullable(),
    hardBounce: p.boolean().default(false),
    leaseUntil: p.datetime().nullable(),
    /** A failed attempt's retry: not taken again before then. */
    nextAttemptAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    sentAt: p.datetime().nullable(),
    deliveredAt: p.datetime().nullable(),
    readAt: p.datetime().nullable(),
    failedAt: p.datetime().nullable(),
    updatedAt: p.datetime().nullable(),
  },
  indexes: [
    { name: 'outbox_message_recipient_idx', properties: ['recipient', 'createdAt'] },
    { name: 'outbox_message_company_idx', expression: 'create index outbox_message_company_idx on kernel.outbox_message (company_id, created_at desc)' },
    {
      name: 'outbox_message_campaign_idx',
      expression: 'create index outbox_message_campaign_idx on kernel.outbox_message (campaign_id) where campaign_id is not null',
    },
    {
      name: 'outbox_message_customer_idx',
      expression: 'create index outbox_message_customer_idx on kernel.outbox_message (customer_id, created_at desc) where customer_id is not null',
    },
  ],
  uniques: [
    { name: 'outbox_message_idempotency_uniq', properties: ['companyId', 'idempotencyKey'] },
    { name: 'outbox_message_provider_id_uniq', properties: ['channel', 'providerMessageId'] },
  ],
  checks: [
    { name: 'outbox_message_channel_check', expression: "channel in ('email', 'sms', 'whatsapp')" },
    { name: 'outbox_message_status_check', expression: `status in (${MESSAGE_STATUSES.map((s) => `'${s}'`).join(', ')})` },
    { name: 'outbox_message_sender_kind_check', expression: `sender_kind in (${SENDER_KINDS.map((s) => `'${s}'`).join(', ')})` },
  ],
});
