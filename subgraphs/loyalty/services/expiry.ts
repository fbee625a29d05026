/** Earned points expire by lots: a daily job writes an EXPIRE entry for each lot past its date. */
import type { RequestContext } from '../../kernel/context.ts';
import { sweepDue } from '../../kernel/sweeps.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import { debit } from './ledger.ts';

interface DueLot {
  company_id: string;
  id: string;
  customer_id: string;
  remaining: number;
}

/**
 * Expires the due lots of one company (`companyId`) or of every company, oldest first: each lot's
 * points left leave the balance in an EXPIRE entry keyed by the lot, so a second run (or a run
 * racing this one) changes nothing. Answers how many lots expired.
 */
export async function expirePoints(ctx: RequestContext, data: Record<string, unknown>): Promise<number> {
  return sweepDue<DueLot>(
    ctx,
    data,
    { select: 'select company_id, id, customer_id, remaining from loyalty.ledger_entry where remaining > 0 and expires_at <= ?', orderBy: 'expires_at', limit: 1000 },
    async (scoped, lot) =>
      !!(await scoped.transaction(async (tx) => {
        // Read again under the lock: a redemption may have consumed the lot meanwhile.
        const [fresh] = await tx.tenantSql<{ remaining: number }>`select remaining from loyalty.ledger_entry where company_id = ${COMPANY} and id = ${lot.id} for update`;
        if (!fresh?.remaining) return null;
        return debit(tx, 'EXPIRE', { customerId: lot.customer_id, points: fresh.remaining, reason: 'Points expired', sourceType: 'expiry', sourceId: lot.id, key: `expire:${lot.id}` }, { fromLot: lot.id });
      })),
  );
}
