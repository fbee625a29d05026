/** Earned points expire by lots: a daily job writes an EXPIRE entry for each lot past its date. */
import type { RequestContext } from '../../kernel/context.ts';
import { sweepDue } from '../../kernel/sweeps.ts';
import { debit } from './ledger.ts';

/**
 * Expires the due lots of one company (`companyId`) or of every company, oldest first: each lot's
 * points left leave the balance in an EXPIRE entry keyed by the lot, so a second run (or a run
 * racing this one) changes nothing. Answers how many lots expired.
 */
export async function expirePoints(ctx: RequestContext, data: Record<string, unknown>): Promise<number> {
  return sweepDue(
    ctx,
    data,
    (q, now) =>
      q
        .selectFrom('loyalty.ledger_entry')
        .select(['companyId', 'id', 'customerId'])
        .where('remaining', '>', 0)
        .where('expiresAt', '<=', now)
        .orderBy('expiresAt')
        .limit(1000),
    async (scoped, lot) =>
      !!(await scoped.transaction(async (tx) => {
        // Read again under the lock: a redemption may have consumed the lot meanwhile.
        const fresh = await tx.query.selectFrom('loyalty.ledger_entry').select('remaining').where('id', '=', lot.id).forUpdate().executeTakeFirst();
        if (!fresh?.remaining) return null;
        return debit(
          tx,
          'EXPIRE',
          { customerId: lot.customerId, points: fresh.remaining, reason: 'Points expired', sourceType: 'expiry', sourceId: lot.id, key: `expire:${lot.id}` },
          { fromLot: lot.id },
        );
      })),
  );
}
