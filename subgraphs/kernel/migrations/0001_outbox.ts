import type { Migration } from '../module.ts';

export const kernel0001: Migration = {
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
