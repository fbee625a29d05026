import type { RequestContext } from '../../kernel/context.ts';
import { backfillFromMembers } from '../../kernel/projections.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import type { CustomerFacts } from '../../members/events.ts';
import { CustomerProjection } from '../entities/customer-projection.ts';

/**
 * Records what members says of a customer, idempotently: a repeat of the same event changes
 * nothing, and facts older than those held (events of one customer may be handled out of order)
 * never overwrite newer ones.
 */
export async function upsertCustomer(tx: RequestContext, facts: CustomerFacts, at: Date): Promise<void> {
  await tx.tenantSql`insert into content.customer_projection as p
       (company_id, customer_id, name, last_name, email, phone, email_verified, phone_verified, updated_at)
     values (${COMPANY}, ${facts.customerId}, ${facts.name}, ${facts.lastName}, ${facts.email}, ${facts.phone}, ${facts.emailVerified}, ${facts.phoneVerified}, ${at})
     on conflict (company_id, customer_id) do update set
       name = excluded.name, last_name = excluded.last_name, email = excluded.email, phone = excluded.phone,
       email_verified = excluded.email_verified, phone_verified = excluded.phone_verified, updated_at = excluded.updated_at
     where p.updated_at <= excluded.updated_at`;
}

export async function forgetCustomer(tx: RequestContext, customerId: string): Promise<void> {
  await tx.tenantSql`delete from content.customer_projection where company_id = ${COMPANY} and customer_id = ${customerId}`;
}

/**
 * How long a customer id missing from the projection is looked for again before it is refused:
 * members' event about a customer who has just signed up may still be on its way (typically a few
 * milliseconds, longer when the queue is busy).
 */
const LAG_GRACE_MS = 1000;
const LAG_POLL_MS = 50;

/**
 * Customer ids among `ids` that are not customers of the caller's company (lower-cased, each
 * once): one query against the projection for all of them; only ids it misses are looked for
 * again while the grace lasts. Call it outside a transaction (it waits for the subscriber's).
 */
export async function notCustomers(ctx: RequestContext, ids: string[]): Promise<string[]> {
  let missing = [...new Set(ids.map((id) => id.toLowerCase()))];
  const deadline = Date.now() + LAG_GRACE_MS;
  while (missing.length) {
    const known = await ctx.rows(CustomerProjection, { customerId: { $in: missing } }, { fields: ['customerId'] });
    const found = new Set(known.map((c) => c.customerId.toLowerCase()));
    missing = missing.filter((id) => !found.has(id));
    if (!missing.length || Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, LAG_POLL_MS));
  }
  return missing;
}

/** Customers that existed before content kept its projection (kernel/projections.ts). */
export const backfillCustomers = (runtime: Runtime) =>
  backfillFromMembers(
    runtime,
    'content',
    'customer_projection',
    `insert into content.customer_projection
       (company_id, customer_id, name, last_name, email, phone, email_verified, phone_verified, updated_at)
     select company_id, id, name, last_name, email, phone, email_verified_at is not null, phone_verified_at is not null, updated_at
       from members.customer
     on conflict (company_id, customer_id) do nothing`,
  );
