import type { Migration } from '../module.ts';

/**
 * An Idempotency-Key's record commits with the write it guards (docs/decisions/, idempotency
 * keys): each claim has its own id, which the writing transaction names when it marks the key
 * `committed`; `unanswered` is a committed write whose request ended without an answer to keep.
 */
export const kernel0006: Migration = {
  name: '0006_idempotency_commit',
  statements: [
    'alter table kernel.idempotency_key drop constraint idempotency_key_state_check',
    `alter table kernel.idempotency_key add constraint idempotency_key_state_check check (state in ('running', 'committed', 'unanswered', 'done'))`,
    'alter table kernel.idempotency_key add column claim uuid, add column committed_at timestamptz, add column result_id text',
  ],
};
