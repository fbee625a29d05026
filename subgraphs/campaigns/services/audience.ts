/** The audience: what campaigns adds to its customers (services/customers.ts) from other subgraphs' events, and the merchant's tags. */
import { sql } from 'kysely';
import type { BookingCreated } from '../../booking/events.ts';
import type { OrderPaid, OrderRefunded } from '../../commerce/events.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';
import { toMoney } from '../../kernel/money.ts';
import { anyOf } from '../../kernel/query.ts';
import type { TierChanged } from '../../loyalty/events.ts';
import { customers } from './customers.ts';

/** An update of one customer's row of the audience. */
const audienceOf = (tx: RequestContext, customerId: string) => tx.query.updateTable('campaigns.audience').where('customerId', '=', customerId);

export async function recordBooking(tx: RequestContext, event: BookingCreated): Promise<void> {
  if (!event.customerId) return;
  await audienceOf(tx, event.customerId)
    .set((eb) => ({ lastBookedAt: eb.fn<Date>('greatest', ['lastBookedAt', eb.val(new Date(event.createdAt))]) }))
    .execute();
}

export async function recordOrderPaid(tx: RequestContext, event: OrderPaid): Promise<void> {
  if (!event.customerId) return;
  const amount = toMoney(event.totalMinor, event.currency).amount;
  await audienceOf(tx, event.customerId)
    .set((eb) => ({ ordersCount: eb('ordersCount', '+', 1), spent: eb('spent', '+', eb.cast<string>(eb.val(amount), 'numeric')) }))
    .execute();
}

/** Money given back no longer counts as spent. */
export async function recordRefund(tx: RequestContext, event: OrderRefunded): Promise<void> {
  if (!event.customerId) return;
  const amount = toMoney(event.amountMinor, event.currency).amount;
  await audienceOf(tx, event.customerId)
    .set((eb) => ({ spent: eb.fn<string>('greatest', [eb.lit(0), eb('spent', '-', eb.cast<string>(eb.val(amount), 'numeric'))]) }))
    .execute();
}

export async function recordTier(tx: RequestContext, event: TierChanged): Promise<void> {
  await audienceOf(tx, event.customerId).set({ tierId: event.tierId, tierName: event.tierName }).execute();
}

/** Tags to add and remove on customers, as the edge checked them (resolvers/segment.inputs.ts). */
export interface TagChanges {
  /** Customer ids in lower case, each once. */
  customerIds: string[];
  /** Tags in lower case. */
  add: string[];
  remove: string[];
}

/** Adds and removes the merchant's tags on customers; answers how many customers were found. */
export async function tagCustomers(ctx: RequestContext, { customerIds, add, remove }: TagChanges): Promise<number> {
  if (!add.length && !remove.length) throw badInput('add', 'give tags to add or to remove');
  if (add.length + remove.length > 20) throw badInput('add', 'at most 20 tags at once');
  const rows = await ctx.transaction(async (tx) => {
    // A customer made a moment ago whose members event has not reached the audience yet joins it
    // now, from members (kernel/customer-projection.ts), rather than go untagged or be waited for.
    await customers.admit(tx, customerIds);
    return tx.query
      .updateTable('campaigns.audience')
      .set({
        tags: sql<string[]>`array(select distinct t from unnest(${sql.ref('tags')} || ${add}::text[]) t where t <> all(${remove}::text[]) order by t)`,
      })
      .where('customerId', '=', anyOf(customerIds))
      .returning('customerId')
      .execute();
  });
  return rows.length;
}
