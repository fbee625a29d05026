import type { Migration } from '../module.ts';

/**
 * Event receipts: a subscriber records each event it handled in the handler's own transaction, so
 * a redelivered event is skipped. pg-boss installs its own tables (schema `pgboss`) when it starts.
 */
export const kernel0002: Migration = {
  name: '0002_jobs',
  statements: [
    `create table kernel.event_receipt (
      subscriber text not null,
      event_id uuid not null,
      handled_at timestamptz not null,
      primary key (subscriber, event_id)
    )`,
    `create index event_receipt_handled_idx on kernel.event_receipt (handled_at)`,
  ],
};
