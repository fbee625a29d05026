import { RequestContext } from './context.ts';
import { AppError } from './errors.ts';
import type { DomainEvent, DomainEvents, EventHandler, EventName } from './events.ts';
import { handleEvent } from './jobs/index.ts';
import { subscriberQueue } from './jobs/queues.ts';
import type { Runtime } from './runtime.ts';
import { sql, type Kysely } from 'kysely';
import { anyOf, queryAcrossTenants } from './query.ts';
import type { Tables } from './tables.ts';

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
  const select = ctx.query
    .selectFrom('members.customer')
    .select((eb) => [
      'id as customerId',
      'name',
      'lastName',
      'email',
      'phone',
      eb('emailVerifiedAt', 'is not', null).$castTo<boolean>().as('emailVerified'),
      eb('phoneVerifiedAt', 'is not', null).$castTo<boolean>().as('phoneVerified'),
      'createdAt',
      'updatedAt',
    ])
    .where('id', '=', anyOf(ids));
  const rows = ctx.inTransaction ? await select.forShare().execute() : await ctx.all(select);
  // Dates where this process has members' entities; PostgreSQL's text in another subgraph's process.
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt), updatedAt: new Date(r.updatedAt) }));
}

/**
 * A projection's miss for a record whose event is on its way (published by its owner, not yet
 * handled here): that event, waiting in this subgraph's own queue, is handled now, by the worker's
 * handler with the worker's receipt (kernel/jobs), so it takes effect once whoever comes first; an
 * event a worker is handling at this moment is waited for by the receipt's unique key, not polled.
 * `match` is part of the event's payload (`{ registrationId }`). Answers whether one was found.
 * Outside a transaction only: the handler runs in a transaction of its own.
 */
export async function catchUpOnEvent<N extends EventName>(
  ctx: RequestContext,
  subgraph: string,
  name: N,
  match: Partial<DomainEvents[N]>,
  handler: EventHandler<N>,
): Promise<boolean> {
  if (ctx.inTransaction) throw new AppError('INTERNAL', 'catchUpOnEvent runs its handler in a transaction of its own: call it before opening one');
  const queue = subscriberQueue(subgraph, name);
  const jobs = await ctx.runtime.jobs.boss.findJobs<DomainEvent<N>>(queue, { data: { name, companyId: ctx.companyId, payload: match } });
  // Queued, retried or being handled: a completed event has been applied (or undone since, by a later one).
  const waiting = jobs.filter((job) => WAITING.has(job.state)).sort((a, b) => new Date(a.createdOn).getTime() - new Date(b.createdOn).getTime());
  for (const { data } of waiting) await handleEvent(ctx.runtime, queue, data, handler as (tx: RequestContext, e: DomainEvent) => Promise<void>);
  return waiting.length > 0;
}

const WAITING = new Set(['created', 'retry', 'active']);

/**
 * Once per database: copies into a subgraph's projection the customers that existed before it
 * kept one (their later changes arrive as members' events, subscribed to before this runs). The
 * one place a subgraph reads members' table, at start. A row in `<schema>.backfill` says it is
 * done; an advisory lock makes processes starting together take turns, so it runs once. `copy` is
 * the `insert … select … from members.customer … on conflict do nothing` that fills the
 * projection (rows already projected from events are left as they are), across every company.
 */
export async function backfillFromMembers(runtime: Runtime, schema: string, name: string, copy: (query: Kysely<Tables>) => Promise<unknown>): Promise<boolean> {
  const ctx = RequestContext.system(runtime, null);
  const backfills = `${schema}.backfill`;
  const marks = (query: Kysely<Tables>) => query as unknown as Kysely<Record<string, { name: string; doneAt: Date }>>;
  // Done is for good: every later start reads that in one statement, without a transaction or the lock.
  if (await marks(ctx.query).selectFrom(backfills).select('name').where('name', '=', name).executeTakeFirst()) return false;
  return ctx.transaction(async (tx) => {
    await tx.query.selectNoFrom(sql`pg_advisory_xact_lock(hashtext(${backfills}))`.as('locked')).execute();
    const claimed = await marks(tx.query)
      .insertInto(backfills)
      .values({ name, doneAt: tx.now() })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .execute();
    if (!claimed.length) return false;
    // A subgraph process whose database holds no members tables has no customers to copy.
    const [{ present }] = await tx.query.selectNoFrom(sql<boolean>`to_regclass(${'members.customer'}) is not null`.as('present')).execute();
    if (present) await copy(queryAcrossTenants(tx.em).query);
    return true;
  });
}
