import { sql } from 'kysely';
import type { RequestContext } from './context.ts';
import { rateLimited } from './errors.ts';

/** What a window limit's count query selects: the rows in the window and the oldest one's time. */
export interface WindowCount {
  n: string | number;
  oldest: Date | string | null;
}

/**
 * "At most `max` per `windowMs`" for one key (an address), enforced inside the transaction that
 * records the new row: an advisory lock held until it ends serialises concurrent requests for the
 * key, then `count` (selecting `n` and `oldest` over the window, through `tx.query`) decides.
 */
export async function enforceWindowLimit(
  tx: RequestContext,
  limit: { lockKey: string; count: () => Promise<WindowCount[]>; max: number; windowMs: number; message: string },
): Promise<void> {
  await tx.query.selectNoFrom(sql`pg_advisory_xact_lock(hashtext(${limit.lockKey}))`.as('locked')).execute();
  const [row] = await limit.count();
  if (Number(row.n) >= limit.max) {
    const now = tx.now().getTime();
    const oldest = row.oldest ? new Date(row.oldest).getTime() : now;
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000));
    throw rateLimited(`${limit.message}; try again in ${retryAfterSeconds} seconds`, retryAfterSeconds);
  }
}
