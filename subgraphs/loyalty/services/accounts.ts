/** A customer's points as merchants and the customer see them; the merchant's adjustment. */
import type { RequestContext } from '../../kernel/context.ts';
import { badInput, forbidden } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { pageRequest } from '../../kernel/pagination.ts';
import { anyOf } from '../../kernel/query.ts';
import type { RowOf } from '../../kernel/tables.ts';
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
              .select((e) => [
                'customerId',
                e.fn.coalesce(e.fn.sum<string | number>('remaining').filterWhere('expiresAt', '<=', soon), e.lit(0)).as('points'),
                e.fn.min('expiresAt').as('next'),
              ])
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
function mayRead(ctx: RequestContext, customerId: string): void {
  const p = ctx.principal;
  if (p.kind === 'merchant' || (p.kind === 'customer' && p.customerId === customerId)) return;
  throw forbidden("Only the merchant or the customer may see a customer's points");
}

/** One customer's standing, to the merchant or the customer themself; those a request asks for are read together. */
export async function standingOf(ctx: RequestContext, customerId: string): Promise<Standing> {
  mayRead(ctx, customerId);
  return ctx.loader('loyalty.standing', (ids: readonly string[]) => standings(ctx, ids)).load(customerId);
}

async function requireCustomer(ctx: RequestContext, customerId: string): Promise<void> {
  if (!(await customers.find(ctx, customerId))) throw badInput('customerId', 'is not a customer of this company');
}

/** A page of a customer's ledger, newest first. */
function ledgerPage(ctx: RequestContext, customerId: string, args: { page?: number | null; limit?: number | null }) {
  return ctx.page(
    ctx.query.selectFrom('loyalty.ledger_entry').selectAll().where('customerId', '=', customerId).orderBy('createdAt', 'desc').orderBy('id', 'desc'),
    pageRequest(args),
  );
}

/** A customer's standing and a page of their ledger (the merchant's view). */
export async function customerLoyalty(ctx: RequestContext, customerId: string, ledger: { page?: number | null; limit?: number | null }) {
  await requireCustomer(ctx, customerId);
  const [[standing], entries] = await Promise.all([standings(ctx, [customerId]), ledgerPage(ctx, customerId, ledger)]);
  return { standing, ledger: entries };
}

/** A merchant's correction as the edge checked it (resolvers/loyalty.inputs.ts): points to add, or to take when negative, never 0. */
export interface PointsAdjustment {
  customerId: string;
  points: number;
  reason: string;
}

/** adjust_points: a positive or negative correction by the merchant; never below a zero balance. Answers the entry written. */
export async function adjustPoints(ctx: RequestContext, input: PointsAdjustment): Promise<RowOf<'loyalty.ledger_entry'>> {
  await requireCustomer(ctx, input.customerId);
  const change = {
    customerId: input.customerId,
    points: Math.abs(input.points),
    reason: input.reason,
    sourceType: 'merchant' as const,
    sourceId: null,
    key: `adjust:${newId()}`,
  };
  const written = await ctx.transaction((tx) => (input.points > 0 ? credit(tx, 'ADJUST', change, null) : debit(tx, 'ADJUST', change)));
  return (await ctx.first(ctx.query.selectFrom('loyalty.ledger_entry').selectAll().where('id', '=', written!.entryId)))!;
}
