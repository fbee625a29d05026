import { AuditLogEntry } from '../../kernel/audit.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';
import { pageRequest } from '../../kernel/pagination.ts';

/** The company's audit log, newest first; the tenant filter keeps it to the caller's company. */
export async function listAuditLog(ctx: RequestContext, args: { from?: Date | null; to?: Date | null; actor?: string | null; operation?: string | null; limit?: number | null; offset?: number | null }) {
  const req = pageRequest({ limit: args.limit, offset: args.offset ?? 0 });
  if (args.from && args.to && args.from >= args.to) throw badInput('to', 'must be after from');
  const where: Record<string, unknown> = {};
  if (args.from || args.to) where.createdAt = { ...(args.from ? { $gte: args.from } : {}), ...(args.to ? { $lt: args.to } : {}) };
  if (args.actor) where.actorId = args.actor;
  if (args.operation) where.operation = args.operation;
  return ctx.page(AuditLogEntry, where, req, { createdAt: 'desc', id: 'desc' });
}
