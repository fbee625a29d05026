import type { Migration } from '../../kernel/module.ts';

export const members0001: Migration = {
  name: '0001_members',
  statements: [
    'create schema if not exists members',
    `create table members.company (
      id uuid primary key,
      name text not null,
      slug text not null unique,
      industry text not null,
      country char(2) not null,
      time_zone text not null,
      currency char(3) not null,
      login_channel text not null check (login_channel in ('email', 'sms', 'whatsapp')),
      registration_fields jsonb not null,
      owner_email text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    `create table members.storefront_domain (
      id uuid primary key,
      company_id uuid not null references members.company (id) deferrable initially deferred,
      host text not null unique,
      created_at timestamptz not null
    )`,
    'create index storefront_domain_company_idx on members.storefront_domain (company_id)',
    `create table members.customer (
      id uuid primary key,
      company_id uuid not null references members.company (id) deferrable initially deferred,
      name text not null,
      last_name text,
      email text,
      phone text,
      source text,
      attributes jsonb,
      email_verified_at timestamptz,
      phone_verified_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    'create unique index customer_company_email_uniq on members.customer (company_id, email) where email is not null',
    'create unique index customer_company_phone_uniq on members.customer (company_id, phone) where phone is not null',
    `create table members.otp_challenge (
      id uuid primary key,
      company_id uuid not null references members.company (id) deferrable initially deferred,
      channel text not null,
      address text not null,
      code_hash text not null,
      attempts int not null default 0,
      expires_at timestamptz not null,
      consumed_at timestamptz,
      created_at timestamptz not null
    )`,
    'create index otp_challenge_address_idx on members.otp_challenge (company_id, address, created_at)',
    `create table members.session (
      id uuid primary key,
      company_id uuid not null references members.company (id) deferrable initially deferred,
      kind text not null check (kind in ('customer', 'merchant')),
      subject text not null,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      replaced_by uuid,
      created_at timestamptz not null
    )`,
    `create table members.api_key (
      id uuid primary key,
      company_id uuid not null references members.company (id) deferrable initially deferred,
      name text not null,
      prefix text not null,
      key_hash text not null unique,
      created_at timestamptz not null,
      revoked_at timestamptz
    )`,
    'create index api_key_company_idx on members.api_key (company_id, created_at)',
    `create table members.signup_request (
      id uuid primary key,
      email text not null,
      organisation_name text not null,
      industry text not null,
      country char(2) not null,
      code_hash text not null,
      attempts int not null default 0,
      expires_at timestamptz not null,
      completed_at timestamptz,
      company_id uuid references members.company (id) deferrable initially deferred,
      created_at timestamptz not null
    )`,
    'create index signup_request_email_idx on members.signup_request (email, created_at)',
    `create table members.login_link (
      id uuid primary key,
      company_id uuid not null references members.company (id) deferrable initially deferred,
      email text not null,
      token_hash text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null
    )`,
  ],
};
