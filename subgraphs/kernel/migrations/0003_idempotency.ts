import type { Migration } from '../module.ts';

export const kernel0003: Migration = {
  name: '0003_idempotency',
  statements: [
    // One row per Idempotency-Key of a caller: claimed while its request runs, then its answer.
    `create table kernel.idempotency_key (
      scope text not null,
      key text not null,
      request_hash text not null,
      state text not null check (state in ('running', 'done')),
      response_status int,
      response_body text,
      created_at timestamptz not null default now(),
      primary key (scope, key)
    )`,
  ],
};
