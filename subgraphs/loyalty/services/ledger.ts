/**
 * The points ledger. Every change is one entry with a unique idempotency key, written in the same
 * transaction as the account's cached balance: a repeated key changes nothing. Credits are lots
 * that expire; debits take the balance down by a conditional update (never below zero) and
 * consume the oldest lots first, so the balance always equals the points left in unexpired lots.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { reasonError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import type { LedgerSource, LedgerType } from '../entities/ledger-entry.ts';
import { listTiers, tierFor } from './tiers.ts';

export interface Change {
  customerId: string;
  /** Positive. */
  points: number;
  reason: string;
  sourceType: LedgerSource;
  sourceId: string | null;
  key: string;
}

export interface Written {
  entryId: string;
  balance: number;
}

/** Records the entry under its key; null when the key was used already (a repeat). */
async function entry(tx: RequestContext, type: LedgerType, change: Change, signed: number, lot: { expiresAt: Date | null } | null): Promise<string | null> {
  const id = newId();
  const inserted = await tx.tenantSql`insert into loyalty.ledger_entry
      (id, company_id, customer_id, type, points, balance_after, reason, source_type, source_id, idempotency_key, remaining, expires_at, created_at)
    values (${id}, ${COMPANY}, ${change.customerId}, ${type}, ${signed}, 0, ${change.reason}, ${change.sourceType}, ${change.sourceId}, ${change.key},
      ${lot ? signed : null}, ${lot?.expiresAt ?? null}, ${tx.now()})
    on conflict (company_id, idempotency_key) do nothing returning id`;
  return inserted.length ? id : null;
}

/** A credit (EARN counts toward the lifetime and the tier; a positive ADJUST or REVERSAL does not). */
export async function credit(tx: RequestContext, type: 'EARN' | 'ADJUST' | 'REVERSAL', change: Change, expiresAt: Date | null): Promise<Written | null> {
  const id = await entry(tx, type, change, change.points, { expiresAt });
  if (!id) return null;
  const earned = type === 'EARN' ? change.points : 0;
  const [account] = await tx.tenantSql<{ balance: number; lifetime_earned: number }>`insert into loyalty.account as a (company_id, customer_id, balance, lifetime_earned, updated_at)
      values (${COMPANY}, ${change.customerId}, ${change.points}, ${earned}, ${tx.now()})
      on conflict (company_id, customer_id) do update set balance = a.balance + excluded.balance, lifetime_earned = a.lifetime_earned + excluded.lifetime_earned, updated_at = excluded.updated_at
      returning balance, lifetime_earned`;
  await tx.tenantSql`update loyalty.ledger_entry set balance_after = ${account.balance} where company_id = ${COMPANY} and id = ${id}`;
  if (earned) await announceTier(tx, change.customerId, account.lifetime_earned - earned, account.lifetime_earned);
  return { entryId: id, balance: account.balance };
}

/**
 * A debit: the balance goes down only if it covers the points (else INSUFFICIENT_POINTS, or with
 * `upTo` as much as there is), and the oldest lots are consumed (or the one lot `fromLot` names:
 * its expiry). Null when the key was used already.
 */
export async function debit(tx: RequestContext, type: 'REDEEM' | 'EXPIRE' | 'ADJUST' | 'REVERSAL', change: Change, options: { upTo?: boolean; fromLot?: string } = {}): Promise<Written | null> {
  let points = change.points;
  if (options.upTo) {
    const [row] = await tx.tenantSql<{ balance: number }>`select balance from loyalty.account where company_id = ${COMPANY} and customer_id = ${change.customerId} for update`;
    points = Math.min(points, row?.balance ?? 0);
    if (points <= 0) return null;
  }
  const id = await entry(tx, type, change, -points, null);
  if (!id) return null;
  const [account] = await tx.tenantSql<{ balance: number }>`update loyalty.account set balance = balance - ${points}, updated_at = ${tx.now()}
    where company_id = ${COMPANY} and customer_id = ${change.customerId} and balance >= ${points} returning balance`;
  if (!account) throw reasonError('INSUFFICIENT_POINTS', `Not enough points: the balance does not cover ${points}`, { field: 'points' });
  let left = points;
  const lots = options.fromLot
    ? await tx.tenantSql<{ id: string; remaining: number }>`select id, remaining from loyalty.ledger_entry where company_id = ${COMPANY} and id = ${options.fromLot} for update`
    : await tx.tenantSql<{ id: string; remaining: number }>`select id, remaining from loyalty.ledger_entry
        where company_id = ${COMPANY} and customer_id = ${change.customerId} and remaining > 0
        order by expires_at nulls last, created_at, id for update`;
  for (const lot of lots) {
    if (!left) break;
    const take = Math.min(left, lot.remaining);
    await tx.tenantSql`update loyalty.ledger_entry set remaining = remaining - ${take} where company_id = ${COMPANY} and id = ${lot.id}`;
    left -= take;
  }
  await tx.tenantSql`update loyalty.ledger_entry set balance_after = ${account.balance} where company_id = ${COMPANY} and id = ${id}`;
  return { entryId: id, balance: account.balance };
}

/** Publishes `loyalty.tier.changed` when earning moved a customer across a tier's threshold. */
async function announceTier(tx: RequestContext, customerId: string, before: number, after: number): Promise<void> {
  const tiers = await listTiers(tx);
  const [was, is] = [tierFor(tiers, before), tierFor(tiers, after)];
  if (was?.id === is?.id) return;
  tx.publish('loyalty.tier.changed', { customerId, tierId: is?.id ?? null, tierName: is?.name ?? null, lifetimePoints: after });
}
