import type { Migration } from '../module.ts';

/** Calls of the legacy /connect/v1 routes per company and route (kernel/legacy-usage.ts). */
export const kernel0005: Migration = {
  name: '0005_legacy_usage',
  statements: [
    `create table kernel.legacy_usage (
      id uuid primary key,
      company_id uuid not null,
      route text not null,
      calls bigint not null constraint legacy_usage_calls_check check (calls > 0),
      first_called_at timestamptz not null,
      last_called_at timestamptz not null,
      constraint legacy_usage_company_route_uniq unique (company_id, route)
    )`,
  ],
};
