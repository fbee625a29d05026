/** The audience: what campaigns adds to its customers (services/customers.ts) from other subgraphs' events, and the merchant's tags. */
import { sql } from 'kysely';
import type { BookingCreated } from '../../booking/events.ts';
import type { OrderPaid, OrderRefunded } from '../../commerce/events.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';
import { isUuid } from '../../kernel/ids.ts';
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

const TAG = /^[a-z0-9][a-z0-9 _-]{0,39}$/;

export function normalizeTag(field: string, value: unknown): string {
  const tag = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!TAG.test(tag)) throw badInput(field, 'must be 1 to 40 letters, digits, spaces, - or _, starting with a letter or digit');
  return tag;
}

/** Adds and removes the merchant's tags on customers; answers how many customers were found. */
export async function tagCustomers(ctx: RequestContext, input: { customerIds: unknown; add?: unknown[] | null; remove?: unknown[] | null }): Promise<number> {
  const ids = input.customerIds;
  if (!Array.isArray(ids) || ids.length < 1 || ids.length > 1000) throw badInput('customerIds', 'must list 1 to 1000 customer ids');
  ids.forEach((id, i) => {
    if (!isUuid(id)) throw badInput(`customerIds[${i}]`, 'must be a customer id');
  });
  const add = (input.add ?? []).map((t, i) => normalizeTag(`add[${i}]`, t));
  const remove = (input.remove ?? []).map((t, i) => normalizeTag(`remove[${i}]`, t));
  if (!add.length && !remove.length) throw badInput('add', 'give tags to add or to remove');
  if (add.length + remove.length > 20) throw badInput('add', 'at most 20 tags at once');
  const lowered = [...new Set((ids as string[]).map((id) => id.toLowerCase()))];
  const rows = await ctx.transaction(async (tx) => {
    // A customer made a moment ago whose members event has not reached the audience yet joins it
    // now, from members (kernel/customer-projection.ts), rather than go untagged or be waited for.
    await customers.admit(tx, lowered);
    return tx.query
      .updateTable('campaigns.audience')
      .set({
        tags: sql<string[]>`array(select distinct t from unnest(${sql.ref('tags')} || ${add}::text[]) t where t <> all(${remove}::text[]) order by t)`,
      })
      .where('customerId', '=', anyOf(lowered))
      .returning('customerId')
      .execute();
  });
  return rows.length;
}
