import type { Migration } from '../../kernel/module.ts';

/** The audience (a projection of customers), suppressions, segments, campaigns, deliveries, send rates. */
export const campaigns0001: Migration = {
  name: '0001_campaigns',
  statements: [
    'create schema if not exists campaigns',
    'create table campaigns.backfill (name text primary key, done_at timestamptz not null)',
    // What campaigns knows of a customer, from members', booking's, commerce's and loyalty's events.
    `create table campaigns.audience (
      company_id uuid not null,
      customer_id uuid not null,
      first_name text not null,
      last_name text,
      email text,
      phone text,
      tags text[] not null,
      tier_id uuid,
      tier_name text,
      last_booked_at timestamptz,
      orders_count int not null,
      spent numeric(16, 3) not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (company_id, customer_id),
      constraint audience_orders_count_check check (orders_count >= 0),
      constraint audience_spent_check check (spent >= 0)
    )`,
    'create index audience_tags_idx on campaigns.audience using gin (tags)',
    // A channel a customer may no longer be sent to: unsubscribed, or the address bounced hard.
    `create table campaigns.suppression (
      company_id uuid not null,
      customer_id uuid not null,
      channel text not null,
      reason text not null,
      detail text,
      created_at timestamptz not null,
      primary key (company_id, customer_id, channel),
      constraint suppression_channel_check check (channel in ('email', 'sms', 'whatsapp')),
      constraint suppression_reason_check check (reason in ('UNSUBSCRIBED', 'HARD_BOUNCE'))
    )`,
    `create table campaigns.segment (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      customer_ids uuid[],
      rules jsonb,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint segment_kind_check check ((customer_ids is null) <> (rules is null))
    )`,
    'create unique index segment_name_uniq on campaigns.segment (company_id, lower(name))',
    `create table campaigns.campaign (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      channel text not null,
      recipient_source text not null,
      segment_id uuid not null references campaigns.segment (id) deferrable initially deferred,
      channel_config jsonb not null,
      scheduled_at timestamptz,
      status text not null,
      status_reason text,
      started_at timestamptz,
      finished_at timestamptz,
      consecutive_failures int not null,
      runner uuid,
      runner_seen_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint campaign_channel_check check (channel in ('email', 'sms', 'whatsapp')),
      constraint campaign_recipient_source_check check (recipient_source in ('segment')),
      constraint campaign_status_check check (status in ('DRAFT', 'SCHEDULED', 'SENDING', 'PAUSED', 'SENT', 'CANCELLED'))
    )`,
    'create index campaign_company_idx on campaigns.campaign (company_id, status, created_at)',
    "create index campaign_due_idx on campaigns.campaign (scheduled_at) where status = 'SCHEDULED'",
    // One row per recipient of a campaign: the primary key is what makes a send exactly once.
    `create table campaigns.delivery (
      company_id uuid not null,
      campaign_id uuid not null references campaigns.campaign (id) on delete cascade deferrable initially deferred,
      customer_id uuid not null,
      address text,
      status text not null,
      skip_reason text,
      attempts int not null,
      next_attempt_at timestamptz not null,
      lease_until timestamptz,
      last_error text,
      provider_message_id text,
      sent_at timestamptz,
      created_at timestamptz not null,
      primary key (campaign_id, customer_id),
      constraint delivery_status_check check (status in ('PENDING', 'SENDING', 'SENT', 'FAILED', 'SKIPPED', 'CANCELLED')),
      constraint delivery_attempts_check check (attempts >= 0)
    )`,
    "create index delivery_ready_idx on campaigns.delivery (campaign_id, next_attempt_at) where status in ('PENDING', 'SENDING')",
    // The next moment a company may send on a channel: every batch moves it on (services/throttle.ts).
    `create table campaigns.send_throttle (
      company_id uuid not null,
      channel text not null,
      next_at timestamptz not null,
      primary key (company_id, channel)
    )`,
  ],
};
