/** A customer's points as merchants and the customer see them; the merchant's adjustment. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, forbidden } from '../../kernel/errors.ts';
import { isUuid, newId } from '../../kernel/ids.ts';
import { pageRequest } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import { requireText } from '../../kernel/validation.ts';
import { customers } from './customers.ts';
import { credit, debit } from './ledger.ts';
import { listTiers, tierFor, type TierRow } from './tiers.ts';

/** Points that expire within this many days count as "expiring soon". */
export const EXPIRING_SOON_DAYS = 30;

export interface Standing {
  customerId: string;
  balance: number;
  lifetimeEarned: number;
  tier: TierRow | null;
  expiringSoon: number;
  nextExpiry: Date | null;
}

/**
 * Many customers' standing in two reads, batched into one statement (tiers; accounts with their
 * lots expiring soon). The account and its lots are read by one select, one snapshot: read apart, a
 * credit committing between the two reads showed its balance without its lot.
 */
export async function standings(ctx: RequestContext, customerIds: readonly string[]): Promise<Standing[]> {
  const soon = new Date(ctx.now().getTime() + EXPIRING_SOON_DAYS * 86_400_000);
  const ids = [...customerIds];
  const [tiers, accounts] = await Promise.all([
    listTiers(ctx),
    ctx.all(
      ctx.query
        .selectFrom('loyalty.account as a')
        .leftJoin(
          (eb) =>
            eb
              .selectFrom('loyalty.ledger_entry')
              .select((e) => ['customerId', e.fn.coalesce(e.fn.sum<string | number>('remaining').filterWhere('expiresAt', '<=', soon), e.lit(0)).as('points'), e.fn.min('expiresAt').as('next')])
              .where('customerId', '=', anyOf(ids))
              .where('remaining', '>', 0)
              .groupBy('customerId')
              .as('l'),
          (join) => join.onRef('l.customerId', '=', 'a.customerId'),
        )
        .select(['a.customerId', 'a.balance', 'a.lifetimeEarned', 'l.points', 'l.next'])
        .where('a.customerId', '=', anyOf(ids)),
    ),
  ]);
  return customerIds.map((customerId) => {
    const account = accounts.find((a) => a.customerId === customerId);
    const lifetimeEarned = Number(account?.lifetimeEarned ?? 0);
    return {
      customerId,
      balance: Number(account?.balance ?? 0),
      lifetimeEarned,
      tier: tierFor(tiers, lifetimeEarned),
      expiringSoon: Number(account?.points ?? 0),
      nextExpiry: account?.next ? new Date(account.next) : null,
    };
  });
}

/** A customer's own standing, or a merchant's view of any of theirs. */
export function mayRead(ctx: RequestContext, customerId: string): void {
  const p = ctx.principal;
  if (p.kind === 'merchant' || (p.kind === 'customer' && p.customerId === customerId)) return;
  throw forbidden("Only the merchant or the customer may see a customer's points");
}

export async function requireCustomer(ctx: RequestContext, customerId: unknown): Promise<string> {
  if (!isUuid(customerId)) throw badInput('customerId', 'must be a customer id');
  if (!(await customers.find(ctx, customerId))) throw badInput('customerId', 'is not a customer of this company');
  return customerId.toLowerCase();
}

/** A page of a customer's ledger, newest first. */
export function ledgerPage(ctx: RequestContext, customerId: string, args: { page?: number | null; limit?: number | null }) {
  return ctx.page(ctx.query.selectFrom('loyalty.ledger_entry').selectAll().where('customerId', '=', customerId).orderBy('createdAt', 'desc').orderBy('id', 'desc'), pageRequest(args));
}

/** adjust_points: a positive or negative correction by the merchant; never below a zero balance. */
export async function adjustPoints(ctx: RequestContext, input: { customerId: unknown; points: number; reason: unknown }) {
  const customerId = await requireCustomer(ctx, input.customerId);
  if (!Number.isInteger(input.points) || input.points === 0 || Math.abs(input.points) > 10_000_000) throw badInput('points', 'must be a whole number of points, not 0, between -10000000 and 10000000');
  const reason = requireText('reason', input.reason, 500);
  const change = { customerId, points: Math.abs(input.points), reason, sourceType: 'merchant' as const, sourceId: null, key: `adjust:${newId()}` };
  const written = await ctx.transaction((tx) => (input.points > 0 ? credit(tx, 'ADJUST', change, null) : debit(tx, 'ADJUST', change)));
  return written!;
}
