import type { Migration } from '../module.ts';

/** The audit log: every merchant or agent write, recorded in the writing transaction (a failure on its own). */
export const kernel0004: Migration = {
  name: '0004_audit',
  statements: [
    `create table kernel.audit_log (
      id uuid primary key,
      company_id uuid not null,
      actor_type text not null check (actor_type in ('api_key', 'session')),
      actor_id text not null,
      interface text not null check (interface in ('graphql', 'rest', 'mcp')),
      via text,
      operation text not null,
      arguments jsonb not null,
      outcome text not null,
      target_id text,
      created_at timestamptz not null
    )`,
    `create index audit_log_company_created_idx on kernel.audit_log (company_id, created_at desc, id desc)`,
  ],
};
