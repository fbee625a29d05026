import type { Migration } from '../module.ts';
import { kernel0001 } from './0001_outbox.ts';

/** The kernel's own tables (outbox, jobs, idempotency, audit), applied before any subgraph's. */
export const KERNEL_MIGRATIONS: Migration[] = [kernel0001];
