import type { Runtime } from '../runtime.ts';

/** Idempotency keys are honoured for a day; receipts outlive any redelivery (pg-boss keeps jobs a week). */
const IDEMPOTENCY_KEPT_MS = 24 * 3600_000;
const RECEIPTS_KEPT_MS = 30 * 24 * 3600_000;

/** The kernel's housekeeping, run hourly by the queue. Response bodies hold personal data: they go once expired. */
export async function purgeKernelTables(runtime: Runtime): Promise<void> {
  const conn = runtime.db.orm.em.getConnection();
  const now = runtime.clock.now();
  await conn.execute('delete from kernel.idempotency_key where created_at < ?', [new Date(now - IDEMPOTENCY_KEPT_MS)]);
  await conn.execute('delete from kernel.event_receipt where handled_at < ?', [new Date(now - RECEIPTS_KEPT_MS)]);
}
