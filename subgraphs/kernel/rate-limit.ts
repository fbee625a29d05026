import type { EntityManager } from '@mikro-orm/postgresql';
import { rateLimited } from './errors.ts';

/**
 * "At most `max` per `windowMs`" for one key (an address), enforced inside the transaction that
 * records the new row: an advisory lock held until it ends serialises concurrent requests for the
 * key, then `countSql` (selecting `n` and `oldest` over the window) decides.
 */
export async function enforceWindowLimit(
  em: EntityManager,
  limit: { lockKey: string; countSql: string; params: unknown[]; max: number; windowMs: number; message: string },
): Promise<void> {
  const conn = em.getConnection();
  const tx = em.getTransactionContext();
  await conn.execute('select pg_advisory_xact_lock(hashtext(?))', [limit.lockKey], 'all', tx);
  const [row] = await conn.execute<{ n: string | number; oldest: Date | string | null }[]>(limit.countSql, limit.params, 'all', tx);
  if (Number(row.n) >= limit.max) {
    const oldest = row.oldest ? new Date(row.oldest).getTime() : Date.now();
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest + limit.windowMs - Date.now()) / 1000));
    throw rateLimited(`${limit.message}; try again in ${retryAfterSeconds} seconds`, retryAfterSeconds);
  }
}
