import type { Migration } from '../../kernel/module.ts';

export const content0002: Migration = {
  name: '0002_customer_projection',
  statements: [
    // Kept from members' customer events (subscriptions.ts); primary key per company and customer.
    `create table content.customer_projection (
      company_id uuid not null, customer_id uuid not null,
      name text not null, last_name text, email text, phone text,
      email_verified boolean not null, phone_verified boolean not null,
      updated_at timestamptz not null,
      primary key (company_id, customer_id)
    )`,
    // One-off data backfills content has done (onStart), by name.
    `create table content.backfill (name text primary key, done_at timestamptz not null)`,
  ],
};
