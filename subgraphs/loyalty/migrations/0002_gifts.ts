import type { Migration } from '../../kernel/module.ts';

/** Gift offers, their redemptions (paid in points or claimed free) and single-use claim tokens. */
export const loyalty0002: Migration = {
  name: '0002_gifts',
  statements: [
    `create table loyalty.gift_offer (
      id uuid primary key,
      company_id uuid not null,
      title text not null,
      description text,
      image_url text,
      points_cost int not null,
      stock int,
      limit_per_customer int,
      starts_at timestamptz,
      ends_at timestamptz,
      min_tier_id uuid references loyalty.membership_tier (id) deferrable initially deferred,
      status text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint gift_offer_points_cost_check check (points_cost >= 0),
      constraint gift_offer_stock_check check (stock >= 0),
      constraint gift_offer_limit_per_customer_check check (limit_per_customer >= 1),
      constraint gift_offer_status_check check (status in ('draft', 'active', 'archived'))
    )`,
    'create index gift_offer_company_idx on loyalty.gift_offer (company_id, status, created_at)',
    `create table loyalty.redemption (
      id uuid primary key,
      company_id uuid not null,
      offer_id uuid not null references loyalty.gift_offer (id) deferrable initially deferred,
      customer_id uuid,
      quantity int not null,
      points int not null,
      code text not null,
      status text not null,
      claim_id uuid,
      created_at timestamptz not null,
      used_at timestamptz,
      cancelled_at timestamptz,
      constraint redemption_quantity_check check (quantity >= 1 and quantity <= 10),
      constraint redemption_points_check check (points >= 0),
      constraint redemption_status_check check (status in ('ISSUED', 'USED', 'CANCELLED'))
    )`,
    'create unique index redemption_code_uniq on loyalty.redemption (company_id, code)',
    'create index redemption_customer_idx on loyalty.redemption (company_id, customer_id, created_at)',
    'create index redemption_offer_idx on loyalty.redemption (offer_id, customer_id)',
    `create table loyalty.gift_claim (
      id uuid primary key,
      company_id uuid not null,
      offer_id uuid not null references loyalty.gift_offer (id) deferrable initially deferred,
      token_hash text not null,
      recipient text,
      expires_at timestamptz not null,
      claimed_at timestamptz,
      created_at timestamptz not null
    )`,
    'create unique index gift_claim_token_uniq on loyalty.gift_claim (token_hash)',
  ],
};
