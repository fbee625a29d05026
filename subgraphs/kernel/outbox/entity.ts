import { defineEntity, p } from '@mikro-orm/core';
import { newId } from '../ids.ts';

export const CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type Channel = (typeof CHANNELS)[number];

/** A message waiting for (or past) delivery. Written in the transaction of the change that causes it. */
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
    status: p.text().$type<'pending' | 'sending' | 'delivered' | 'failed'>().default('pending'),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    deliveredAt: p.datetime().nullable(),
  },
  indexes: [
    { name: 'outbox_message_pending_idx', properties: ['createdAt'], where: "status = 'pending'" },
    { name: 'outbox_message_recipient_idx', properties: ['recipient', 'createdAt'] },
  ],
  checks: [
    { name: 'outbox_message_channel_check', expression: "channel in ('email', 'sms', 'whatsapp')" },
    { name: 'outbox_message_status_check', expression: "status in ('pending', 'sending', 'delivered', 'failed')" },
  ],
});
