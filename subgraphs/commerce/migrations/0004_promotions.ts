import type { Migration } from '../../kernel/module.ts';

/**
 * Promotion codes and their uses, and the two functions that take and give back a use: commerce's
 * published database interface, called inside the transaction of whatever uses a code (a shop
 * order here, a booking in booking's own transaction), so the use and the order or booking commit
 * or roll back together. No other subgraph touches these tables.
 */
export const commerce0004: Migration = {
  name: '0004_promotions',
  statements: [
    `create table commerce.promotion (
      id uuid primary key,
      company_id uuid not null,
      name text not null,
      code text not null,
      description text,
      type text not null,
      percent numeric(5, 2),
      amount_minor bigint,
      currency char(3) not null,
      booking_enabled boolean not null,
      online_enabled boolean not null,
      pos_enabled boolean not null,
      starts_at timestamptz,
      ends_at timestamptz,
      usage_limit int,
      per_customer_limit int,
      minimum_amount_minor bigint,
      used_count int not null,
      active boolean not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint promotion_type_check check (type in ('percentage', 'fixed', 'free_shipping')),
      constraint promotion_percent_check check (percent >= 1 and percent <= 100),
      constraint promotion_amount_minor_check check (amount_minor > 0),
      constraint promotion_value_check check ((type = 'percentage') = (percent is not null) and (type = 'fixed') = (amount_minor is not null)),
      constraint promotion_usage_limit_check check (usage_limit >= 1),
      constraint promotion_per_customer_limit_check check (per_customer_limit >= 1),
      constraint promotion_minimum_amount_minor_check check (minimum_amount_minor >= 0),
      constraint promotion_used_count_check check (used_count >= 0 and (usage_limit is null or used_count <= usage_limit)),
      constraint promotion_period_check check (ends_at is null or starts_at is null or ends_at > starts_at)
    )`,
    'create unique index promotion_code_uniq on commerce.promotion (company_id, code)',
    'create index promotion_company_created_idx on commerce.promotion (company_id, created_at)',
    `create table commerce.promotion_usage (
      id uuid primary key,
      company_id uuid not null,
      promotion_id uuid not null references commerce.promotion (id) on delete cascade deferrable initially deferred,
      channel text not null,
      order_id uuid,
      booking_id uuid,
      customer_key text,
      discount_minor bigint not null,
      created_at timestamptz not null,
      released_at timestamptz,
      constraint promotion_usage_channel_check check (channel in ('booking', 'online', 'pos')),
      constraint promotion_usage_discount_minor_check check (discount_minor >= 0)
    )`,
    'create unique index promotion_usage_order_uniq on commerce.promotion_usage (order_id) where order_id is not null',
    'create unique index promotion_usage_booking_uniq on commerce.promotion_usage (booking_id) where booking_id is not null',
    'create index promotion_usage_customer_idx on commerce.promotion_usage (promotion_id, customer_key)',
    // Takes one use of a code: the checks in the order validate_promotion reports them, the
    // per-customer limit counted under a lock on that customer's uses, then the conditional
    // update of the counter that alone decides the last uses under concurrency. A refusal
    // returns its error code and writes nothing; so does a dry run (validate_promotion).
    `create function commerce.take_promotion(
      p_company uuid, p_code text, p_channel text, p_amount_minor bigint, p_customer_key text,
      p_usage_id uuid, p_order_id uuid, p_booking_id uuid, p_shipping_minor bigint, p_now timestamptz, p_dry_run boolean default false
    ) returns table (error_code text, promotion_id uuid, promotion_type text, discount_minor bigint)
    language plpgsql as $$
    declare
      p commerce.promotion%rowtype;
      taken int;
      off bigint;
    begin
      select * into p from commerce.promotion where company_id = p_company and code = p_code;
      if not found then return query select 'PROMOTION_NOT_FOUND'::text, null::uuid, null::text, 0::bigint; return; end if;
      error_code := case
        when not p.active then 'INACTIVE'
        when p.starts_at is not null and p.starts_at > p_now then 'NOT_STARTED'
        when p.ends_at is not null and p.ends_at <= p_now then 'EXPIRED'
        when not (case p_channel when 'booking' then p.booking_enabled when 'online' then p.online_enabled when 'pos' then p.pos_enabled else false end) then 'CHANNEL_NOT_ENABLED'
        when p.minimum_amount_minor is not null and p_amount_minor < p.minimum_amount_minor then 'MINIMUM_NOT_MET'
        when p.usage_limit is not null and p.used_count >= p.usage_limit then 'USAGE_LIMIT_REACHED'
      end;
      if error_code is null and p.per_customer_limit is not null and p_customer_key is not null then
        perform pg_advisory_xact_lock(hashtext('promotion:' || p.id::text || ':' || p_customer_key));
        select count(*) into taken from commerce.promotion_usage u
         where u.company_id = p_company and u.promotion_id = p.id and u.customer_key = p_customer_key and u.released_at is null;
        if taken >= p.per_customer_limit then error_code := 'CUSTOMER_LIMIT_REACHED'; end if;
      end if;
      if error_code is null and not p_dry_run then
        update commerce.promotion set used_count = used_count + 1, updated_at = p_now
         where id = p.id and active and (usage_limit is null or used_count < usage_limit);
        if not found then error_code := 'USAGE_LIMIT_REACHED'; end if;
      end if;
      if error_code is not null then return query select error_code, p.id, p.type, 0::bigint; return; end if;
      -- Half up in minor units (15% of 1999 is 299.85, so 300); never more than the amount.
      off := case p.type
        when 'percentage' then round(p_amount_minor * p.percent / 100)::bigint
        when 'fixed' then p.amount_minor
        else 0 end;
      off := least(off, p_amount_minor);
      if p_dry_run then return query select null::text, p.id, p.type, off; return; end if;
      insert into commerce.promotion_usage (id, company_id, promotion_id, channel, order_id, booking_id, customer_key, discount_minor, created_at, released_at)
      values (p_usage_id, p_company, p.id, p_channel, p_order_id, p_booking_id, p_customer_key,
              case when p.type = 'free_shipping' then coalesce(p_shipping_minor, 0) else off end, p_now, null);
      return query select null::text, p.id, p.type, off;
    end $$`,
    // Gives back the use an order or a booking took (it was cancelled or expired), once.
    `create function commerce.release_promotion(p_company uuid, p_order_id uuid, p_booking_id uuid, p_now timestamptz)
    returns int language plpgsql as $$
    declare released int;
    begin
      with freed as (
        update commerce.promotion_usage set released_at = p_now
         where company_id = p_company and released_at is null
           and ((p_order_id is not null and order_id = p_order_id) or (p_booking_id is not null and booking_id = p_booking_id))
        returning promotion_id
      ), counted as (
        update commerce.promotion q set used_count = q.used_count - n.uses, updated_at = p_now
          from (select promotion_id, count(*)::int as uses from freed group by promotion_id) n
         where q.id = n.promotion_id
        returning 1
      )
      select count(*) into released from counted;
      return released;
    end $$`,
  ],
};
