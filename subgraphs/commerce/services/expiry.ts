/** The end of an unpaid order's payment window: EXPIRED, its stock released (a scheduled job). */
import type { RequestContext } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import { sweepDue } from '../../kernel/sweeps.ts';
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
  return sweepDue(
    ctx,
    data,
    (q, now) =>
      q
        .selectFrom('commerce.shop_order')
        .select(['companyId', 'id'])
        .where('status', '=', 'PENDING_PAYMENT')
        .where('expiresAt', '<=', now)
        .orderBy('expiresAt')
        .limit(500),
    (scoped, row) => expireOrder(scoped, row.id),
  );
}
