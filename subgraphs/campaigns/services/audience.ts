/** The audience projection: customers as other subgraphs' events describe them, and the merchant's tags. */
import type { BookingCreated } from '../../booking/events.ts';
import type { OrderPaid, OrderRefunded } from '../../commerce/events.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { badInput } from '../../kernel/errors.ts';
import { isUuid } from '../../kernel/ids.ts';
import { toMoney } from '../../kernel/money.ts';
import { backfillFromMembers, customersInMembers, type CustomerIdentity } from '../../kernel/projections.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import type { TierChanged } from '../../loyalty/events.ts';
import type { CustomerFacts } from '../../members/events.ts';

/** A customer's contact facts (members.customer.created / updated); their history is kept. */
export async function rememberCustomer(tx: RequestContext, facts: CustomerFacts, at: Date): Promise<void> {
  await tx.tenantSql`insert into campaigns.audience as a (company_id, customer_id, first_name, last_name, email, phone, tags, orders_count, spent, created_at, updated_at)
    values (${COMPANY}, ${facts.customerId}, ${facts.name}, ${facts.lastName}, ${facts.email}, ${facts.phone}, '{}', 0, 0, ${at}, ${at})
    on conflict (company_id, customer_id) do update set first_name = excluded.first_name, last_name = excluded.last_name, email = excluded.email,
      phone = excluded.phone, updated_at = excluded.updated_at`;
}

/** A deleted customer leaves the audience, their suppressions and their pending deliveries. */
export async function forgetCustomer(tx: RequestContext, customerId: string): Promise<void> {
  await tx.tenantSql`delete from campaigns.audience where company_id = ${COMPANY} and customer_id = ${customerId}`;
  await tx.tenantSql`delete from campaigns.suppression where company_id = ${COMPANY} and customer_id = ${customerId}`;
  await tx.tenantSql`update campaigns.delivery set status = 'CANCELLED', skip_reason = 'CUSTOMER_DELETED', address = null, lease_until = null
    where company_id = ${COMPANY} and customer_id = ${customerId} and status in ('PENDING', 'SENDING')`;
}

export async function recordBooking(tx: RequestContext, event: BookingCreated): Promise<void> {
  if (!event.customerId) return;
  await tx.tenantSql`update campaigns.audience set last_booked_at = greatest(last_booked_at, ${new Date(event.createdAt)})
    where company_id = ${COMPANY} and customer_id = ${event.customerId}`;
}

export async function recordOrderPaid(tx: RequestContext, event: OrderPaid): Promise<void> {
  if (!event.customerId) return;
  await tx.tenantSql`update campaigns.audience set orders_count = orders_count + 1, spent = spent + ${toMoney(event.totalMinor, event.currency).amount}::numeric
    where company_id = ${COMPANY} and customer_id = ${event.customerId}`;
}

/** Money given back no longer counts as spent. */
export async function recordRefund(tx: RequestContext, event: OrderRefunded): Promise<void> {
  if (!event.customerId) return;
  await tx.tenantSql`update campaigns.audience set spent = greatest(0, spent - ${toMoney(event.amountMinor, event.currency).amount}::numeric)
    where company_id = ${COMPANY} and customer_id = ${event.customerId}`;
}

export async function recordTier(tx: RequestContext, event: TierChanged): Promise<void> {
  await tx.tenantSql`update campaigns.audience set tier_id = ${event.tierId}, tier_name = ${event.tierName}
    where company_id = ${COMPANY} and customer_id = ${event.customerId}`;
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
    // now, from members (kernel/projections.ts), rather than go untagged or be waited for.
    const present = await tx.tenantSql<{ customer_id: string }>`select customer_id from campaigns.audience where company_id = ${COMPANY} and customer_id in (${lowered})`;
    const missing = lowered.filter((id) => !present.some((r) => r.customer_id === id));
    if (missing.length) await joinAudience(tx, await customersInMembers(tx, missing));
    return tx.tenantSql<{ customer_id: string }>`update campaigns.audience
      set tags = array(select distinct t from unnest(tags || array(select jsonb_array_elements_text(${JSON.stringify(add)}::jsonb))) t
        where t not in (select jsonb_array_elements_text(${JSON.stringify(remove)}::jsonb)) order by t)
      where company_id = ${COMPANY} and customer_id in (${lowered}) returning customer_id`;
  });
  return rows.length;
}

/** Customers as members has them now, into the audience as the backfill puts them (one statement); members' events follow. */
async function joinAudience(tx: RequestContext, customers: CustomerIdentity[]): Promise<void> {
  if (!customers.length) return;
  const facts = customers.map((c) => ({ customer_id: c.customerId, first_name: c.name, last_name: c.lastName, email: c.email, phone: c.phone, created_at: c.createdAt, updated_at: c.updatedAt }));
  await tx.tenantSql`insert into campaigns.audience (company_id, customer_id, first_name, last_name, email, phone, tags, orders_count, spent, created_at, updated_at)
    select ${COMPANY}, f.customer_id, f.first_name, f.last_name, f.email, f.phone, '{}', 0, 0, f.created_at, f.updated_at
    from jsonb_to_recordset(${JSON.stringify(facts)}::jsonb) as f(customer_id uuid, first_name text, last_name text, email text, phone text, created_at timestamptz, updated_at timestamptz)
    on conflict (company_id, customer_id) do nothing`;
}

/** Customers that existed before campaigns kept its projection (kernel/projections.ts). */
export const backfillAudience = (runtime: Runtime) =>
  backfillFromMembers(
    runtime,
    'campaigns',
    'audience',
    `insert into campaigns.audience (company_id, customer_id, first_name, last_name, email, phone, tags, orders_count, spent, created_at, updated_at)
     select company_id, id, name, last_name, email, phone, '{}', 0, 0, created_at, updated_at from members.customer on conflict (company_id, customer_id) do nothing`,
  );
