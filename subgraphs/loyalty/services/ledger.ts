/**
 * The points ledger. Every change is one entry with a unique idempotency key, written in the same
 * transaction as the account's cached balance: a repeated key changes nothing. Credits are lots
 * that expire; debits take the balance down by a conditional update (never below zero) and
 * consume the oldest lots first, so the balance always equals the points left in unexpired lots.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { reasonError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
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
  const inserted = await tx.query
    .insertInto('loyalty.ledger_entry')
    .values({
      id,
      customerId: change.customerId,
      type,
      points: signed,
      balanceAfter: 0,
      reason: change.reason,
      sourceType: change.sourceType,
      sourceId: change.sourceId,
      idempotencyKey: change.key,
      remaining: lot ? signed : null,
      expiresAt: lot?.expiresAt ?? null,
      createdAt: tx.now(),
    })
    .onConflict((oc) => oc.columns(['companyId', 'idempotencyKey']).doNothing())
    .returning('id')
    .execute();
  return inserted.length ? id : null;
}

/** The balance an entry left, written once the account has been changed. */
async function setBalanceAfter(tx: RequestContext, id: string, balance: number): Promise<void> {
  await tx.query.updateTable('loyalty.ledger_entry').set({ balanceAfter: balance }).where('id', '=', id).execute();
}

/** A credit (EARN counts toward the lifetime and the tier; a positive ADJUST or REVERSAL does not). */
export async function credit(tx: RequestContext, type: 'EARN' | 'ADJUST' | 'REVERSAL', change: Change, expiresAt: Date | null): Promise<Written | null> {
  const id = await entry(tx, type, change, change.points, { expiresAt });
  if (!id) return null;
  const earned = type === 'EARN' ? change.points : 0;
  const account = await tx.query
    .insertInto('loyalty.account')
    .values({ customerId: change.customerId, balance: change.points, lifetimeEarned: earned, updatedAt: tx.now() })
    .onConflict((oc) =>
      oc.columns(['companyId', 'customerId']).doUpdateSet((eb) => ({
        balance: eb('loyalty.account.balance', '+', eb.ref('excluded.balance')),
        lifetimeEarned: eb('loyalty.account.lifetimeEarned', '+', eb.ref('excluded.lifetimeEarned')),
        updatedAt: eb.ref('excluded.updatedAt'),
      })),
    )
    .returning(['balance', 'lifetimeEarned'])
    .executeTakeFirstOrThrow();
  await setBalanceAfter(tx, id, account.balance);
  if (earned) await announceTier(tx, change.customerId, account.lifetimeEarned - earned, account.lifetimeEarned);
  return { entryId: id, balance: account.balance };
}

/**
 * A debit: the balance goes down only if it covers the points (else INSUFFICIENT_POINTS, or with
 * `upTo` as much as there is), and the oldest lots are consumed (or the one lot `fromLot` names:
 * its expiry). Null when the key was used already.
 */
export async function debit(
  tx: RequestContext,
  type: 'REDEEM' | 'EXPIRE' | 'ADJUST' | 'REVERSAL',
  change: Change,
  options: { upTo?: boolean; fromLot?: string } = {},
): Promise<Written | null> {
  let points = change.points;
  if (options.upTo) {
    const row = await tx.query.selectFrom('loyalty.account').select('balance').where('customerId', '=', change.customerId).forUpdate().executeTakeFirst();
    points = Math.min(points, row?.balance ?? 0);
    if (points <= 0) return null;
  }
  const id = await entry(tx, type, change, -points, null);
  if (!id) return null;
  const account = await tx.query
    .updateTable('loyalty.account')
    .set((eb) => ({ balance: eb('balance', '-', points), updatedAt: tx.now() }))
    .where('customerId', '=', change.customerId)
    .where('balance', '>=', points)
    .returning('balance')
    .executeTakeFirst();
  if (!account) throw reasonError('INSUFFICIENT_POINTS', `Not enough points: the balance does not cover ${points}`, { field: 'points' });
  let left = points;
  const lots = tx.query.selectFrom('loyalty.ledger_entry').select(['id', 'remaining']);
  const locked = await (
    options.fromLot
      ? lots.where('id', '=', options.fromLot)
      : lots
          .where('customerId', '=', change.customerId)
          .where('remaining', '>', 0)
          .orderBy('expiresAt', (ob) => ob.asc().nullsLast())
          .orderBy('createdAt')
          .orderBy('id')
  )
    .forUpdate()
    .execute();
  for (const lot of locked) {
    if (!left) break;
    const take = Math.min(left, lot.remaining ?? 0);
    await tx.query
      .updateTable('loyalty.ledger_entry')
      .set((eb) => ({ remaining: eb('remaining', '-', take) }))
      .where('id', '=', lot.id)
      .execute();
    left -= take;
  }
  await setBalanceAfter(tx, id, account.balance);
  return { entryId: id, balance: account.balance };
}

/** Publishes `loyalty.tier.changed` when earning moved a customer across a tier's threshold. */
async function announceTier(tx: RequestContext, customerId: string, before: number, after: number): Promise<void> {
  const tiers = await listTiers(tx);
  const [was, is] = [tierFor(tiers, before), tierFor(tiers, after)];
  if (was?.id === is?.id) return;
  tx.publish('loyalty.tier.changed', { customerId, tierId: is?.id ?? null, tierName: is?.name ?? null, lifetimePoints: after });
}
