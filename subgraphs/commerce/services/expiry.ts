/** The end of an unpaid order's payment window: EXPIRED, its stock released (a scheduled job). */
import { RequestContext } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import { endUnpaidOrder } from './orders.ts';

/** Expires one order if it is still unpaid and its window has passed; a paid or ended order is left alone. */
export async function expireOrder(ctx: RequestContext, orderId: string): Promise<boolean> {
  try {
    return (await endUnpaidOrder(ctx, orderId, 'EXPIRED', 'Not paid within the payment window')) !== null;
  } catch (error) {
    const code = error instanceof AppError ? error.extensions.code : undefined;
    // Paid, cancelled or gone meanwhile: nothing to expire.
    if (code === 'INVALID_STATE_TRANSITION' || code === 'NOT_FOUND') return false;
    throw error;
  }
}

/**
 * The job: an order's own expiry (sent with runAt at its `expiresAt`), or, on its schedule, a
 * sweep of the due orders of one company (`companyId`) or of every company (a backstop for an
 * order whose own job was lost).
 */
export async function runExpiry(ctx: RequestContext, data: Record<string, unknown>): Promise<number> {
  if (typeof data.orderId === 'string') return (await expireOrder(ctx, data.orderId)) ? 1 : 0;
  const due =
    typeof data.companyId === 'string'
      ? await ctx.tenantSql<{ company_id: string; id: string }>`select company_id, id from commerce.shop_order
          where company_id = ${COMPANY} and status = 'PENDING_PAYMENT' and expires_at <= ${ctx.now()} order by expires_at limit 500`
      : await ctx.sql<{ company_id: string; id: string }>(
          `select company_id, id from commerce.shop_order where status = 'PENDING_PAYMENT' and expires_at <= ? order by expires_at limit 500`,
          [ctx.now()],
          { acrossTenants: true },
        );
  let expired = 0;
  for (const row of due) if (await expireOrder(RequestContext.system(ctx.runtime, row.company_id), row.id)) expired++;
  return expired;
}
