import type { Migration } from '../../kernel/module.ts';

/** The catalog: categories, brands, collections, products and their variants, stock movements. */
export const commerce0001: Migration = {
  name: '0001_catalog',
  statements: [
    'create schema if not exists commerce',
    `create table commerce.product_category (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      slug text not null,
      description text,
      parent_id uuid references commerce.product_category (id) deferrable initially deferred,
      created_at timestamptz not null
    )`,
    'create unique index product_category_slug_uniq on commerce.product_category (company_id, slug)',
    `create table commerce.brand (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      slug text not null,
      description text,
      logo_url text,
      created_at timestamptz not null
    )`,
    'create unique index brand_slug_uniq on commerce.brand (company_id, slug)',
    `create table commerce.collection (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      slug text not null,
      description text,
      created_at timestamptz not null
    )`,
    'create unique index collection_slug_uniq on commerce.collection (company_id, slug)',
    `create table commerce.product (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      slug text not null,
      description text,
      images jsonb not null,
      category_id uuid references commerce.product_category (id) deferrable initially deferred,
      brand_id uuid references commerce.brand (id) deferrable initially deferred,
      status text not null check (status in ('draft', 'active', 'archived')),
      tax_rate numeric(5, 2) not null check (tax_rate >= 0 and tax_rate <= 100),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    'create unique index product_slug_uniq on commerce.product (company_id, slug)',
    'create index product_company_idx on commerce.product (company_id, status, created_at)',
    'create index product_category_idx on commerce.product (category_id)',
    `create table commerce.product_variant (
      id uuid primary key,
      company_id uuid not null,
      product_id uuid not null references commerce.product (id) on delete cascade deferrable initially deferred,
      name text,
      sku text,
      price_minor bigint not null check (price_minor >= 0),
      compare_at_price_minor bigint check (compare_at_price_minor >= 0),
      currency char(3) not null,
      stock int not null check (stock >= 0),
      track_inventory boolean not null,
      is_default boolean not null,
      options jsonb not null,
      position int not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    'create unique index product_variant_sku_uniq on commerce.product_variant (company_id, lower(sku)) where sku is not null',
    'create index product_variant_product_idx on commerce.product_variant (product_id, position)',
    // One default variant per product at most.
    'create unique index product_variant_default_uniq on commerce.product_variant (product_id) where is_default',
    `create table commerce.collection_product (
      collection_id uuid not null references commerce.collection (id) on delete cascade deferrable initially deferred,
      product_id uuid not null references commerce.product (id) on delete cascade deferrable initially deferred,
      company_id uuid not null,
      created_at timestamptz not null,
      primary key (collection_id, product_id)
    )`,
    'create index collection_product_product_idx on commerce.collection_product (product_id)',
    `create table commerce.stock_movement (
      id uuid primary key,
      company_id uuid not null,
      variant_id uuid not null references commerce.product_variant (id) on delete cascade deferrable initially deferred,
      delta int not null,
      stock_after int not null check (stock_after >= 0),
      reason text not null,
      created_at timestamptz not null
    )`,
    'create index stock_movement_variant_idx on commerce.stock_movement (variant_id, created_at)',
  ],
};
