import { systemQuery } from '../query.ts';
import type { Runtime } from '../runtime.ts';

/** Idempotency keys are honoured for a day; receipts outlive any redelivery (pg-boss keeps jobs a week). */
const IDEMPOTENCY_KEPT_MS = 24 * 3600_000;
const RECEIPTS_KEPT_MS = 30 * 24 * 3600_000;
/** A rate limit's window counts only while it is the current minute; an hour back is history. */
const RATE_WINDOWS_KEPT_MS = 3600_000;

/** The kernel's housekeeping, run hourly by the queue. Response bodies hold personal data: they go once expired. */
export async function purgeKernelTables(runtime: Runtime): Promise<void> {
  const q = systemQuery(runtime.db.orm.em);
  const now = runtime.clock.now();
  await q
    .deleteFrom('kernel.idempotency_key')
    .where('createdAt', '<', new Date(now - IDEMPOTENCY_KEPT_MS))
    .execute();
  await q
    .deleteFrom('kernel.event_receipt')
    .where('handledAt', '<', new Date(now - RECEIPTS_KEPT_MS))
    .execute();
  await q
    .deleteFrom('kernel.rate_window')
    .where('windowStart', '<', new Date(now - RATE_WINDOWS_KEPT_MS))
    .execute();
}
