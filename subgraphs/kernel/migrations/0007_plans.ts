import type { Migration } from '../module.ts';

/**
 * Plans and what they meter (kernel/plans.ts): the plans themselves (rewritten from configuration
 * at every start), the plan a company is on (no row: the free plan, by calendar month), what a
 * company used per meter and period, and the fixed one-minute windows of the rate limits. The
 * windows are unlogged: written on every request, they need no write-ahead log flush, and what a
 * database crash loses of them is a minute's counts.
 */
export const kernel0007: Migration = {
  name: '0007_plans',
  statements: [
    `create table kernel.plan (
      id text primary key,
      name text not null,
      price_minor bigint not null check (price_minor >= 0),
      currency char(3) not null,
      features text[] not null,
      limits jsonb not null,
      position int not null
    )`,
    `insert into kernel.plan (id, name, price_minor, currency, features, limits, position) values
      ('free', 'Free', 0, 'USD', '{}', '{}', 0),
      ('starter', 'Starter', 4900, 'USD', '{}', '{}', 1)`,
    `create table kernel.company_plan (
      company_id uuid primary key,
      plan_id text not null,
      period_anchor timestamptz not null,
      paid_until timestamptz,
      next_plan_id text,
      updated_at timestamptz not null
    )`,
    `create table kernel.usage (
      company_id uuid not null,
      meter text not null,
      period_start timestamptz not null,
      used bigint not null constraint usage_used_check check (used >= 0),
      primary key (company_id, meter, period_start)
    )`,
    `create unlogged table kernel.rate_window (
      key text not null,
      window_start timestamptz not null,
      count int not null,
      primary key (key, window_start)
    )`,
    'create index rate_window_start_idx on kernel.rate_window (window_start)',
  ],
};
