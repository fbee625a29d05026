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
    id: p.uuid().primary().onCreate(() => newId()),
    companyId: p.uuid().nullable(),
    channel: p.string().$type<Channel>(),
    to: p.string().fieldName('recipient'),
    subject: p.string().nullable(),
    body: p.text(),
    status: p.string().$type<'pending' | 'sending' | 'delivered' | 'failed'>().default('pending'),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    deliveredAt: p.datetime().nullable(),
  },
});
