import { RequestContext } from './context.ts';
import { AppError } from './errors.ts';
import type { DomainEvent, DomainEvents, EventHandler, EventName } from './events.ts';
import { handleEvent } from './jobs/index.ts';
import { subscriberQueue } from './jobs/queues.ts';
import type { Runtime } from './runtime.ts';
import { COMPANY } from './tenancy.ts';

/*
 * A subgraph's projections of another's data (the customers commerce, loyalty, content and
 * campaigns keep; commerce's registrations) follow that subgraph's events, handled by the job
 * queue a moment after it committed, so a record made just now may not be there yet. A request
 * never waits for it (no polling on the request path): a miss asks the owner at once, through one
 * of the two functions below, and is "not found" only when the owner has nothing either. The
 * customers' projection itself is written once, in kernel/customer-projection.ts; each of those
 * subgraphs declares what it keeps.
 */

/** A customer as members holds it: the facts its events carry (members' CustomerFacts), and when. */
export interface CustomerIdentity {
  customerId: string;
  name: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  emailVerified: boolean;
  phoneVerified: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The customers of the caller's company with these ids, read from members' identity table (the
 * kernel's read-only exception, as for the principal and the backfill below): what a projection
 * that misses a customer asks. Ids the company has no customer for are left out. Inside a
 * transaction the rows are held (`for share`) until it ends, so a deletion cannot pass between
 * this read and what the caller writes from it.
 */
export async function customersInMembers(ctx: RequestContext, customerIds: readonly string[]): Promise<CustomerIdentity[]> {
  const ids = [...new Set(customerIds.map((id) => id.toLowerCase()))];
  if (!ids.length) return [];
  const rows = ctx.inTransaction
    ? await ctx.tenantSql<IdentityRow>`select id, name, last_name, email, phone, email_verified_at is not null as email_verified,
        phone_verified_at is not null as phone_verified, created_at, updated_at
        from members.customer where company_id = ${COMPANY} and id in (${ids}) for share`
    : await ctx.tenantSql<IdentityRow>`select id, name, last_name, email, phone, email_verified_at is not null as email_verified,
        phone_verified_at is not null as phone_verified, created_at, updated_at
        from members.customer where company_id = ${COMPANY} and id in (${ids})`;
  return rows.map((r) => ({
    customerId: r.id,
    name: r.name,
    lastName: r.last_name,
    email: r.email,
    phone: r.phone,
    emailVerified: r.email_verified,
    phoneVerified: r.phone_verified,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  }));
}

interface IdentityRow {
  id: string;
  name: string;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  email_verified: boolean;
  phone_verified: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

/**
 * A projection's miss for a record whose event is on its way (published by its owner, not yet
 * handled here): that event, waiting in this subgraph's own queue, is handled now, by the worker's
 * handler with the worker's receipt (kernel/jobs), so it takes effect once whoever comes first; an
 * event a worker is handling at this moment is waited for by the receipt's unique key, not polled.
 * `match` is part of the event's payload (`{ registrationId }`). Answers whether one was found.
 * Outside a transaction only: the handler runs in a transaction of its own.
 */
export async function catchUpOnEvent<N extends EventName>(ctx: RequestContext, subgraph: string, name: N, match: Partial<DomainEvents[N]>, handler: EventHandler<N>): Promise<boolean> {
  if (ctx.inTransaction) throw new AppError('INTERNAL', 'catchUpOnEvent runs its handler in a transaction of its own: call it before opening one');
  const queue = subscriberQueue(subgraph, name);
  // Queued, retried or being handled: a completed event has been applied (or undone since, by a later one).
  const waiting = await ctx.sql<{ data: DomainEvent<N> }>(`select data from ${ctx.runtime.jobs.schema}.job where name = ? and state <= 'active' and data @> ?::jsonb order by created_on`, [
    queue,
    JSON.stringify({ name, companyId: ctx.companyId, payload: match }),
  ]);
  for (const { data } of waiting) await handleEvent(ctx.runtime, queue, data, handler as (tx: RequestContext, e: DomainEvent) => Promise<void>);
  return waiting.length > 0;
}

/**
 * Once per database: copies into a subgraph's projection the customers that existed before it
 * kept one (their later changes arrive as members' events, subscribed to before this runs). The
 * one place a subgraph reads members' table, at start. A row in `<schema>.backfill` says it is
 * done; an advisory lock makes processes starting together take turns, so it runs once. `copy` is
 * the `insert … select … from members.customer … on conflict do nothing` that fills the
 * projection (rows already projected from events are left as they are).
 */
export async function backfillFromMembers(runtime: Runtime, schema: string, name: string, copy: string): Promise<boolean> {
  const ctx = RequestContext.system(runtime, null);
  // Done is for good: every later start reads that in one statement, without a transaction or the lock.
  if ((await ctx.sql(`select 1 from ${schema}.backfill where name = ?`, [name])).length) return false;
  return ctx.transaction(async (tx) => {
    await tx.sql('select pg_advisory_xact_lock(hashtext(?))', [`${schema}.backfill`]);
    const claimed = await tx.sql(`insert into ${schema}.backfill (name, done_at) values (?, ?) on conflict (name) do nothing returning name`, [name, tx.now()]);
    if (!claimed.length) return false;
    // A subgraph process whose database holds no members tables has no customers to copy.
    const [{ present }] = await tx.sql<{ present: boolean }>('select to_regclass(?) is not null as present', ['members.customer']);
    if (present) await tx.sql(copy, [], { acrossTenants: true });
    return true;
  });
}
