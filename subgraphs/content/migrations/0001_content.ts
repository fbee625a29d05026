import type { Migration } from '../../kernel/module.ts';

export const content0001: Migration = {
  name: '0001_content',
  statements: [
    'create schema if not exists content',
    `create table content.category (
      id uuid primary key, company_id uuid not null, name text not null, slug text not null, created_at timestamptz not null,
      unique (company_id, slug)
    )`,
    `create table content.post_type (
      id uuid primary key, company_id uuid not null, key text not null, label text not null, created_at timestamptz not null,
      unique (company_id, key)
    )`,
    `create table content.post_type_field (
      id uuid primary key, company_id uuid not null,
      post_type_id uuid not null references content.post_type (id) on delete cascade deferrable initially deferred,
      key text not null, label text not null,
      field_type text not null check (field_type in ('text', 'number', 'boolean', 'date', 'image', 'url', 'select', 'richtext')),
      required boolean not null, options jsonb, created_at timestamptz not null,
      unique (post_type_id, key)
    )`,
    `create table content.post (
      id uuid primary key, company_id uuid not null,
      post_type_id uuid not null references content.post_type (id) deferrable initially deferred,
      title text not null, slug text not null, status text not null check (status in ('draft', 'published')),
      category_id uuid references content.category (id) deferrable initially deferred,
      fields jsonb not null, blocks jsonb not null, excerpt text, published_at timestamptz,
      created_at timestamptz not null, updated_at timestamptz not null,
      unique (company_id, slug)
    )`,
    `create index post_listing_idx on content.post (company_id, status, published_at desc)`,
    `create table content.page (
      id uuid primary key, company_id uuid not null, title text not null, slug text not null,
      status text not null check (status in ('draft', 'published')), blocks jsonb not null,
      seo_title text, seo_description text, published_at timestamptz,
      created_at timestamptz not null, updated_at timestamptz not null,
      unique (company_id, slug)
    )`,
    `create table content.menu (
      id uuid primary key, company_id uuid not null, location text not null, items jsonb not null, updated_at timestamptz not null,
      unique (company_id, location)
    )`,
    `create table content.event (
      id uuid primary key, company_id uuid not null, title text not null, slug text not null, description text,
      starts_at timestamptz not null, ends_at timestamptz not null, venue text,
      capacity int check (capacity is null or capacity > 0), price_minor bigint not null check (price_minor >= 0), currency char(3) not null,
      status text not null check (status in ('draft', 'published', 'cancelled')),
      created_at timestamptz not null, updated_at timestamptz not null,
      check (starts_at < ends_at),
      unique (company_id, slug)
    )`,
    `create index event_listing_idx on content.event (company_id, status, starts_at)`,
    `create table content.event_registration (
      id uuid primary key, company_id uuid not null,
      event_id uuid not null references content.event (id) deferrable initially deferred,
      customer_id uuid, name text not null, email text, phone text,
      quantity int not null check (quantity > 0),
      status text not null check (status in ('CONFIRMED', 'PENDING_PAYMENT', 'CANCELLED')),
      amount_minor bigint not null, currency char(3) not null,
      created_at timestamptz not null, updated_at timestamptz not null
    )`,
    `create index event_registration_event_idx on content.event_registration (event_id, status)`,
    `create index event_registration_customer_idx on content.event_registration (company_id, customer_id)`,
    `create table content.survey (
      id uuid primary key, company_id uuid not null, title text not null, slug text not null, description text,
      status text not null check (status in ('draft', 'published', 'closed')), questions jsonb not null,
      created_at timestamptz not null, updated_at timestamptz not null,
      unique (company_id, slug)
    )`,
    `create table content.survey_invitation (
      id uuid primary key, company_id uuid not null,
      survey_id uuid not null references content.survey (id) deferrable initially deferred,
      token_hash text not null unique, customer_id uuid, email text, responded_at timestamptz, created_at timestamptz not null
    )`,
    `create table content.survey_response (
      id uuid primary key, company_id uuid not null,
      survey_id uuid not null references content.survey (id) deferrable initially deferred,
      invitation_id uuid unique references content.survey_invitation (id) deferrable initially deferred,
      customer_id uuid, answers jsonb not null, metadata jsonb, created_at timestamptz not null
    )`,
    `create index survey_response_survey_idx on content.survey_response (survey_id, created_at)`,
    `create table content.contact_inquiry (
      id uuid primary key, company_id uuid not null, name text not null, email text, phone text, message text not null,
      created_at timestamptz not null
    )`,
    `create index contact_inquiry_company_idx on content.contact_inquiry (company_id, created_at desc)`,
  ],
};
