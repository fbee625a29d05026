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

export const outboxMigration = {
  name: '0001_outbox',
  statements: [
    `create table kernel.outbox_message (
      id uuid primary key,
      company_id uuid,
      channel text not null check (channel in ('email', 'sms', 'whatsapp')),
      recipient text not null,
      subject text,
      body text not null,
      status text not null default 'pending' check (status in ('pending', 'sending', 'delivered', 'failed')),
      attempts int not null default 0,
      last_error text,
      created_at timestamptz not null,
      delivered_at timestamptz
    )`,
    `create index outbox_message_pending_idx on kernel.outbox_message (created_at) where status = 'pending'`,
    `create index outbox_message_recipient_idx on kernel.outbox_message (recipient, created_at)`,
    // Credentials used by callers (API keys), recorded by the kernel without writing members' tables.
    `create table kernel.credential_use (credential_id uuid primary key, last_used_at timestamptz not null)`,
  ],
};
