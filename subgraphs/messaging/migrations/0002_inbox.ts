import type { Migration } from '../../kernel/module.ts';

/**
 * The inbox: contacts (a customer's address on a channel, with its consent), one conversation per
 * contact, its messages (in, out and internal notes), the company's approved WhatsApp templates,
 * and the customers messaging knows (kernel/customer-projection.ts).
 */
export const messaging0002: Migration = {
  name: '0002_inbox',
  statements: [
    `create table messaging.customer_projection (
      company_id uuid not null,
      customer_id uuid not null,
      first_name text,
      last_name text,
      email text,
      phone text,
      updated_at timestamptz not null,
      primary key (company_id, customer_id)
    )`,
    `create index customer_projection_phone_idx on messaging.customer_projection (company_id, phone)`,
    `create index customer_projection_email_idx on messaging.customer_projection (company_id, email)`,
    // One-off data backfills messaging has done (onStart), by name.
    `create table messaging.backfill (name text primary key, done_at timestamptz not null)`,
    `create table messaging.contact (
      id uuid primary key,
      company_id uuid not null,
      channel text not null check (channel in ('email', 'sms', 'whatsapp')),
      address text not null,
      customer_id uuid,
      name text,
      opted_out_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint contact_address_uniq unique (company_id, channel, address)
    )`,
    `create index contact_customer_idx on messaging.contact (company_id, customer_id)`,
    `create table messaging.conversation (
      id uuid primary key,
      company_id uuid not null,
      contact_id uuid not null references messaging.contact (id) on delete cascade,
      channel text not null,
      customer_id uuid,
      status text not null check (status in ('open', 'pending', 'snoozed', 'resolved')),
      snoozed_until timestamptz,
      assignee_id uuid,
      priority text not null check (priority in ('none', 'low', 'medium', 'high', 'urgent')),
      waiting_since timestamptz,
      last_message_at timestamptz not null,
      last_incoming_at timestamptz,
      unread_count int not null default 0 check (unread_count >= 0),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint conversation_contact_uniq unique (contact_id)
    )`,
    `create index conversation_company_idx on messaging.conversation (company_id, status, last_message_at desc)`,
    `create table messaging.conversation_message (
      id uuid primary key,
      company_id uuid not null,
      conversation_id uuid not null references messaging.conversation (id) on delete cascade,
      kind text not null check (kind in ('incoming', 'outgoing', 'note')),
      text text,
      template jsonb,
      provider_message_id text,
      outbox_message_id uuid,
      sender_kind text not null check (sender_kind in ('customer', 'system', 'staff', 'agent', 'campaign')),
      sender_id text,
      created_at timestamptz not null,
      constraint conversation_message_provider_uniq unique (company_id, provider_message_id)
    )`,
    `create index conversation_message_conversation_idx on messaging.conversation_message (conversation_id, created_at desc)`,
    `create table messaging.template (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      language text not null,
      category text not null check (category in ('marketing', 'utility', 'authentication')),
      body text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint template_name_uniq unique (company_id, name, language)
    )`,
  ],
};
