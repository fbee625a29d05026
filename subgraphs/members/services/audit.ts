import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';
import { pageRequest } from '../../kernel/pagination.ts';

/** The company's audit log, newest first; ctx.query keeps it to the caller's company. */
export async function listAuditLog(
  ctx: RequestContext,
  args: { from?: Date | null; to?: Date | null; actor?: string | null; operation?: string | null; limit?: number | null; offset?: number | null },
) {
  const req = pageRequest({ limit: args.limit, offset: args.offset ?? 0 });
  if (args.from && args.to && args.from >= args.to) throw badInput('to', 'must be after from');
  let select = ctx.query.selectFrom('kernel.audit_log').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc');
  if (args.from) select = select.where('createdAt', '>=', args.from);
  if (args.to) select = select.where('createdAt', '<', args.to);
  if (args.actor) select = select.where('actorId', '=', args.actor);
  if (args.operation) select = select.where('operation', '=', args.operation);
  return ctx.page(select, req);
}
