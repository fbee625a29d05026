import { p } from '@mikro-orm/core';
import type { MiddlewareFn } from 'type-graphql';
import type { RequestContext } from './context.ts';
import { newId } from './ids.ts';
import { tenantEntity } from './tenancy.ts';

/** Where a write came in: the facade names itself in the internal `x-via` header ("mcp create_service", "rest POST /v6/…"). */
export const VIA_HEADER = 'x-via';

/** One merchant or agent write. Read through the tenant filter: a merchant sees only their company's. */
export const AuditLogEntry = tenantEntity({
  name: 'AuditLogEntry',
  schema: 'kernel',
  tableName: 'audit_log',
  properties: {
    id: p.uuid().primary(),
    actorType: p.text().$type<'api_key' | 'session'>(),
    actorId: p.text(),
    interface: p.text().$type<'graphql' | 'rest' | 'mcp'>(),
    via: p.text().nullable(),
    operation: p.text(),
    arguments: p.json<Record<string, unknown>>(),
    outcome: p.text(),
    targetId: p.text().nullable(),
    createdAt: p.datetime(),
  },
  indexes: [{ name: 'audit_log_company_created_idx', columns: [{ name: 'company_id' }, { name: 'created_at', sort: 'desc' }, { name: 'id', sort: 'desc' }] }],
  checks: [
    { name: 'audit_log_actor_type_check', expression: "actor_type in ('api_key', 'session')" },
    { name: 'audit_log_interface_check', expression: "interface in ('graphql', 'rest', 'mcp')" },
  ],
});
export type AuditLogEntry = InstanceType<typeof AuditLogEntry.class>;

/** The write a mutation is making, until it is recorded (once, by its transaction or by its failure). */
export interface PendingAudit {
  operation: string;
  arguments: Record<string, unknown>;
  recorded: boolean;
  /** The row written, and whether it already names what the write affected. */
  rowId?: string;
  hasTarget?: boolean;
}

const SECRET = /code|token|key|secret|password|otp/i;

/** Arguments with secrets (codes, tokens, keys, passwords) replaced, at any depth. */
export function redact(value: unknown, name = ''): unknown {
  if (name && SECRET.test(name) && value != null && typeof value !== 'object') return '[redacted]';
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}

/** The id a write affected: the result's own, or the id it was given. */
function targetOf(result: unknown, args: Record<string, unknown>): string | null {
  const r = result as { id?: unknown; booking?: { id?: unknown } } | null;
  if (r && typeof r.id === 'string') return r.id;
  for (const [name, value] of Object.entries(args)) if (/Id$|^id$/.test(name) && typeof value === 'string') return value;
  return null;
}

function row(ctx: RequestContext, audit: PendingAudit, outcome: string, targetId: string | null) {
  const principal = ctx.principal as Extract<RequestContext['principal'], { kind: 'merchant' }>;
  const [kind, ...rest] = (ctx.header(VIA_HEADER) ?? 'graphql').split(' ');
  const face = kind === 'mcp' || kind === 'rest' ? kind : 'graphql';
  return {
    id: newId(),
    actorType: principal.via,
    actorId: principal.credentialId,
    interface: face,
    via: face === 'graphql' ? null : rest.join(' ').slice(0, 300),
    operation: audit.operation,
    arguments: audit.arguments,
    outcome,
    targetId,
    createdAt: ctx.now(),
  } as const;
}

const record = (ctx: RequestContext, values: ReturnType<typeof row>) => ctx.query.insertInto('kernel.audit_log').values(values).execute();

/** Called by ctx.transaction before it commits: the write and its record stand or fall together. */
export async function recordInTransaction(tx: RequestContext, result: unknown): Promise<void> {
  const audit = tx.audit;
  if (!audit || audit.recorded) return;
  audit.recorded = true;
  const values = row(tx, audit, 'ok', targetOf(result, audit.arguments));
  audit.rowId = values.id;
  audit.hasTarget = values.targetId !== null;
  await record(tx, values);
}

/**
 * Every root mutation a merchant or an agent calls is audited: who, through which interface and
 * operation, the redacted arguments, the outcome and the affected id. A successful write is
 * recorded by its own transaction; a failed one here, on its own, after its transaction rolled back.
 */
export const auditMutations: MiddlewareFn<RequestContext> = async ({ context, info, args }, next) => {
  if (info.parentType.name !== 'Mutation') return next();
  const principal = await context.authenticate();
  if (principal.kind !== 'merchant') return next();
  const audit: PendingAudit = { operation: info.fieldName, arguments: redact(args) as Record<string, unknown>, recorded: false };
  context.audit = audit;
  try {
    const result = await next();
    // A write that needed no transaction (nothing changed) is still on the record.
    if (!audit.recorded) await record(context, row(context, audit, 'ok', targetOf(result, audit.arguments)));
    // The transaction's own value may not carry the id its mutation answers with (a created key and its secret).
    else if (!audit.hasTarget && targetOf(result, {}))
      await context.query
        .updateTable('kernel.audit_log')
        .set({ targetId: targetOf(result, {}) })
        .where('id', '=', audit.rowId!)
        .execute();
    return result;
  } catch (error) {
    if (!audit.recorded)
      await record(
        context,
        row(
          context,
          audit,
          String((error as { extensions?: { code?: unknown } } | null | undefined)?.extensions?.code ?? 'INTERNAL'),
          targetOf(null, audit.arguments),
        ),
      ).catch(() => {});
    throw error;
  } finally {
    context.audit = undefined;
  }
};
