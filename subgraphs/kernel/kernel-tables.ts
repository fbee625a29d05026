import type { Generated } from 'kysely';
import type { AuditLogEntry } from './audit.ts';
import type { LegacyUsage } from './legacy-usage.ts';
import type { OutboxMessage } from './outbox/entity.ts';
import type { CompanyPlan, PlanUsage } from './plans.ts';
import type { Table } from './tables.ts';

/** The kernel's own tables, for `ctx.query` (kernel/tables.ts); those without an entity are written out. */
declare module './tables.ts' {
  interface Tables {
    'kernel.audit_log': Table<typeof AuditLogEntry>;
    'kernel.legacy_usage': Table<typeof LegacyUsage>;
    'kernel.outbox_message': Table<typeof OutboxMessage>;
    'kernel.idempotency_key': {
      scope: string;
      key: string;
      requestHash: string;
      state: 'running' | 'committed' | 'unanswered' | 'done';
      responseStatus: number | null;
      responseBody: string | null;
      claim: string | null;
      resultId: string | null;
      committedAt: Date | null;
      createdAt: Generated<Date>;
    };
    'kernel.event_receipt': { subscriber: string; eventId: string; handledAt: Date };
    'kernel.credential_use': { credentialId: string; lastUsedAt: Date };
    'kernel.plan': { id: string; name: string; priceMinor: number; currency: string; features: string[]; limits: unknown; position: number };
    'kernel.company_plan': Table<typeof CompanyPlan>;
    'kernel.usage': Table<typeof PlanUsage>;
    'kernel.rate_window': { key: string; windowStart: Date; count: number };
  }
}
