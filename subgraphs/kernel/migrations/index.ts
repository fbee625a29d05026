import type { Migration } from '../module.ts';
import { kernel0001 } from './0001_outbox.ts';
import { kernel0002 } from './0002_jobs.ts';
import { kernel0003 } from './0003_idempotency.ts';
import { kernel0004 } from './0004_audit.ts';
import { kernel0005 } from './0005_legacy_usage.ts';
import { kernel0006 } from './0006_idempotency_commit.ts';
import { kernel0007 } from './0007_plans.ts';
import { kernel0008 } from './0008_message_log.ts';

/** The kernel's own tables (the message log, jobs, idempotency, audit, legacy route use, plans and usage), applied before any subgraph's. */
export const KERNEL_MIGRATIONS: Migration[] = [kernel0001, kernel0002, kernel0003, kernel0004, kernel0005, kernel0006, kernel0007, kernel0008];
