import type { Migration } from '../module.ts';

/**
 * The outbox becomes the one log of outgoing messages (decision 0017): whoever sent it (system,
 * staff, agent, campaign), what it carries on its channel (html and headers for email, a template
 * for WhatsApp), the provider's id once taken, and a status that only moves forward.
 */
export const kernel0008: Migration = {
  name: '0008_message_log',
  statements: [
    `alter table kernel.outbox_message drop constraint outbox_message_status_check`,
    `drop index kernel.outbox_message_pending_idx`,
    `update kernel.outbox_message set status = case status when 'pending' then 'queued' when 'delivered' then 'sent' else status end`,
    `alter table kernel.outbox_message rename column delivered_at to sent_at`,
    `alter table kernel.outbox_message
      alter column status set default 'queued',
      add constraint outbox_message_status_check check (status in ('queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'cancelled')),
      add column html text,
      add column template jsonb,
      add column extras jsonb,
      add column customer_id uuid,
      add column campaign_id uuid,
      add column sender_kind text not null default 'system' check (sender_kind in ('system', 'staff', 'agent', 'campaign')),
      add column sender_id text,
      add column idempotency_key text,
      add column provider text,
      add column provider_message_id text,
      add column error_code text,
      add column hard_bounce boolean not null default false,
      add column confidential boolean not null default false,
      add column lease_until timestamptz,
      add column next_attempt_at timestamptz,
      add column delivered_at timestamptz,
      add column read_at timestamptz,
      add column failed_at timestamptz,
      add column updated_at timestamptz`,
    `create unique index outbox_message_idempotency_uniq on kernel.outbox_message (company_id, idempotency_key)`,
    `create unique index outbox_message_provider_id_uniq on kernel.outbox_message (channel, provider_message_id)`,
    `create index outbox_message_company_idx on kernel.outbox_message (company_id, created_at desc)`,
    `create index outbox_message_campaign_idx on kernel.outbox_message (campaign_id) where campaign_id is not null`,
    `create index outbox_message_customer_idx on kernel.outbox_message (customer_id, created_at desc) where customer_id is not null`,
  ],
};
