import type { RequestContext } from './context.ts';
import { rateLimited } from './errors.ts';

/**
 * "At most `max` per `windowMs`" for one key (an address), enforced inside the transaction that
 * records the new row: an advisory lock held until it ends serialises concurrent requests for the
 * key, then `countSql` (selecting `n` and `oldest` over the window) decides.
 */
export async function enforceWindowLimit(
  tx: RequestContext,
  limit: { lockKey: string; countSql: string; params: unknown[]; max: number; windowMs: number; message: string },
): Promise<void> {
  await tx.sql('select pg_advisory_xact_lock(hashtext(?))', [limit.lockKey]);
  const [row] = await tx.sql<{ n: string | number; oldest: Date | string | null }>(limit.countSql, limit.params);
  if (Number(row.n) >= limit.max) {
    const now = tx.now().getTime();
    const oldest = row.oldest ? new Date(row.oldest).getTime() : now;
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000));
    throw rateLimited(`${limit.message}; try again in ${retryAfterSeconds} seconds`, retryAfterSeconds);
  }
}
