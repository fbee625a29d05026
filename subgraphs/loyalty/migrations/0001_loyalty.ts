import type { Migration } from '../../kernel/module.ts';

/** Earn rules, membership tiers, the points ledger with its cached accounts, the customer projection. */
export const loyalty0001: Migration = {
  name: '0001_loyalty',
  statements: [
    'create schema if not exists loyalty',
    // A company's earn rules; a company without a row has the defaults (services/rules.ts).
    `create table loyalty.rules (
      company_id uuid primary key,
      points_per_currency_unit numeric(10, 2) not null,
      points_per_booking int not null,
      booking_points_per_currency_unit numeric(10, 2) not null,
      expiry_days int,
      updated_at timestamptz not null,
      constraint rules_points_per_currency_unit_check check (points_per_currency_unit >= 0),
      constraint rules_points_per_booking_check check (points_per_booking >= 0),
      constraint rules_booking_points_per_currency_unit_check check (booking_points_per_currency_unit >= 0),
      constraint rules_expiry_days_check check (expiry_days >= 1)
    )`,
    `create table loyalty.membership_tier (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      threshold int not null,
      benefits jsonb not null,
      sort_order int not null,
      color text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint membership_tier_threshold_check check (threshold >= 0)
    )`,
    'create unique index membership_tier_name_uniq on loyalty.membership_tier (company_id, lower(name))',
    'create unique index membership_tier_threshold_uniq on loyalty.membership_tier (company_id, threshold)',
    // The cached sum of a customer's ledger, changed in the same transaction as each entry.
    `create table loyalty.account (
      company_id uuid not null,
      customer_id uuid not null,
      balance int not null,
      lifetime_earned int not null,
      updated_at timestamptz not null,
      primary key (company_id, customer_id),
      constraint account_balance_check check (balance >= 0),
      constraint account_lifetime_earned_check check (lifetime_earned >= 0)
    )`,
    // Append-only: credits are lots (remaining, expires_at) that debits consume oldest first.
    `create table loyalty.ledger_entry (
      id uuid primary key,
      company_id uuid not null,
      customer_id uuid not null,
      type text not null,
      points int not null,
      balance_after int not null,
      reason text not null,
      source_type text not null,
      source_id text,
      idempotency_key text not null,
      remaining int,
      expires_at timestamptz,
      created_at timestamptz not null,
      constraint ledger_entry_type_check check (type in ('EARN', 'REDEEM', 'EXPIRE', 'ADJUST', 'REVERSAL')),
      constraint ledger_entry_source_type_check check (source_type in ('order', 'booking', 'redemption', 'merchant', 'expiry')),
      constraint ledger_entry_points_check check (points <> 0),
      constraint ledger_entry_balance_after_check check (balance_after >= 0),
      constraint ledger_entry_remaining_check check (remaining >= 0 and remaining <= points)
    )`,
    'create unique index ledger_entry_key_uniq on loyalty.ledger_entry (company_id, idempotency_key)',
    'create index ledger_entry_customer_idx on loyalty.ledger_entry (company_id, customer_id, created_at)',
    'create index ledger_entry_lot_idx on loyalty.ledger_entry (company_id, customer_id, expires_at) where remaining > 0',
    'create index ledger_entry_expiry_idx on loyalty.ledger_entry (expires_at) where remaining > 0',
    // Kept from members' customer events: adjust_points checks customerId against it.
    `create table loyalty.customer_projection (
      company_id uuid not null,
      customer_id uuid not null,
      updated_at timestamptz not null,
      primary key (company_id, customer_id)
    )`,
    `create table loyalty.backfill (name text primary key, done_at timestamptz not null)`,
  ],
};
