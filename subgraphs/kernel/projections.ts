import { RequestContext } from './context.ts';
import type { Runtime } from './runtime.ts';

/**
 * A subgraph's projections of another's data (commerce's customers and registrations, loyalty's
 * customers) follow that subgraph's events, delivered through the job queue a moment after it
 * committed. A customer who has just signed up, or registered for an event, may arrive before the
 * event does: a read that finds nothing looks again for a short while before answering "not found".
 */
// Seconds, not milliseconds: under load (many events queued at once) a delivery can take a few.
const GRACE_MS = 5000;
const POLL_MS = 50;

export async function readAllowingLag<T>(read: () => Promise<T | null>): Promise<T | null> {
  const deadline = Date.now() + GRACE_MS;
  for (;;) {
    const found = await read();
    if (found || Date.now() >= deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
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
