import type { Migration } from '../../kernel/module.ts';

export const booking0001: Migration = {
  name: '0001_booking',
  statements: [
    'create extension if not exists btree_gist',
    'create schema if not exists booking',
    `create table booking.service_category (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      created_at timestamptz not null
    )`,
    'create unique index service_category_name_uniq on booking.service_category (company_id, lower(name))',
    `create table booking.service (
      id uuid primary key,
      company_id uuid not null,
      category_id uuid references booking.service_category (id) deferrable initially deferred,
      name text not null,
      description text,
      prep_notes text,
      duration_minutes int not null check (duration_minutes between 5 and 1440),
      price_minor bigint not null check (price_minor >= 0),
      currency char(3) not null,
      capacity int not null check (capacity between 1 and 1000),
      requires_staff boolean not null,
      requires_resource boolean not null,
      buffer_before_minutes int not null check (buffer_before_minutes >= 0),
      buffer_after_minutes int not null check (buffer_after_minutes >= 0),
      minimum_notice_minutes int not null check (minimum_notice_minutes >= 0),
      booking_horizon_days int not null check (booking_horizon_days between 1 and 730),
      cancellation_policy jsonb not null,
      active boolean not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    'create index service_company_idx on booking.service (company_id, name)',
    `create table booking.staff_member (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      email text,
      phone text,
      title text,
      active boolean not null,
      created_at timestamptz not null
    )`,
    'create index staff_member_company_idx on booking.staff_member (company_id)',
    `create table booking.resource (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      type text not null,
      active boolean not null,
      created_at timestamptz not null
    )`,
    'create index resource_company_idx on booking.resource (company_id)',
    `create table booking.service_staff (
      service_id uuid not null references booking.service (id) on delete cascade deferrable initially deferred,
      staff_id uuid not null references booking.staff_member (id) on delete cascade deferrable initially deferred,
      company_id uuid not null,
      primary key (service_id, staff_id)
    )`,
    `create table booking.service_resource (
      service_id uuid not null references booking.service (id) on delete cascade deferrable initially deferred,
      resource_id uuid not null references booking.resource (id) on delete cascade deferrable initially deferred,
      company_id uuid not null,
      primary key (service_id, resource_id)
    )`,
    `create table booking.availability_rule (
      id uuid primary key,
      company_id uuid not null,
      owner_type text not null check (owner_type in ('staff', 'resource')),
      owner_id uuid not null,
      day_of_week int check (day_of_week between 0 and 6),
      date date,
      start_minute int check (start_minute between 0 and 1440),
      end_minute int check (end_minute between 0 and 1440),
      created_at timestamptz not null,
      check ((day_of_week is null) <> (date is null)),
      check ((start_minute is null) = (end_minute is null)),
      check (start_minute is null or start_minute < end_minute)
    )`,
    'create index availability_rule_owner_idx on booking.availability_rule (company_id, owner_id)',
    `create table booking.booking (
      id uuid primary key,
      company_id uuid not null,
      service_id uuid not null references booking.service (id) deferrable initially deferred,
      staff_id uuid references booking.staff_member (id) deferrable initially deferred,
      resource_id uuid references booking.resource (id) deferrable initially deferred,
      customer_id uuid,
      customer_name text not null,
      customer_email text,
      customer_phone text,
      participants int not null check (participants >= 1),
      occurrence_key text not null,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      block_start timestamptz not null,
      block_end timestamptz not null,
      status text not null check (status in ('CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW')),
      price_minor bigint not null,
      currency char(3) not null,
      source text not null,
      cancellation_reason text,
      cancelled_at timestamptz,
      refund_percent int,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      check (starts_at < ends_at and block_start <= starts_at and block_end >= ends_at),
      -- A staff member or a resource is never in two occurrences at once. Seats of one group
      -- occurrence (same service, same start) share them, hence the <> on the occurrence.
      constraint booking_staff_no_overlap exclude using gist (
        staff_id with =, tstzrange(block_start, block_end) with &&, occurrence_key with <>
      ) where (status = 'CONFIRMED' and staff_id is not null),
      constraint booking_resource_no_overlap exclude using gist (
        resource_id with =, tstzrange(block_start, block_end) with &&, occurrence_key with <>
      ) where (status = 'CONFIRMED' and resource_id is not null)
    )`,
    'create index booking_company_start_idx on booking.booking (company_id, starts_at)',
    "create index booking_service_start_idx on booking.booking (service_id, starts_at) where status = 'CONFIRMED'",
    'create index booking_customer_idx on booking.booking (company_id, customer_id)',
    'create index booking_contact_idx on booking.booking (company_id, customer_email, customer_phone)',
    `create table booking.booking_event (
      id uuid primary key,
      company_id uuid not null,
      booking_id uuid not null references booking.booking (id) deferrable initially deferred,
      type text not null,
      from_start timestamptz,
      to_start timestamptz,
      note text,
      actor text not null,
      created_at timestamptz not null
    )`,
    'create index booking_event_booking_idx on booking.booking_event (booking_id, created_at)',
  ],
};
