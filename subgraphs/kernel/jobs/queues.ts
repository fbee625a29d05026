import type { Queue } from 'pg-boss';

/** The schema pg-boss installs into, unless a test gives its own. */
export const JOBS_SCHEMA = 'pgboss';

/** Outgoing messages of every subgraph, worked by messaging: a job names one company's messages in the log (kernel/outbox). */
export const MESSAGE_QUEUE = 'kernel.message';

/** Hourly: drops what the kernel keeps only for a while (expired idempotency keys, old event receipts). */
export const PURGE_QUEUE = 'kernel.purge';

/** A subscriber's queue: one per (subgraph, event), so each subgraph consumes its own copy. */
export const subscriberQueue = (subgraph: string, event: string) => `${subgraph}.on.${event}`;

/**
 * Retries with exponential backoff (2 s, 4 s, 8 s … capped at 5 min) and then the `failed` state:
 * the dead-letter state an operator lists and retries (`npm run jobs`). A job claimed by a process
 * that died is retried once its claim expires.
 */
export const QUEUE_DEFAULTS: Omit<Queue, 'name'> = {
  retryLimit: 5,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 300,
  expireInSeconds: 120, // JOB_EXPIRE_SECONDS
  deleteAfterSeconds: 7 * 24 * 3600,
};
