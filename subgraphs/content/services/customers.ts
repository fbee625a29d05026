import type { RequestContext } from '../../kernel/context.ts';
import { backfillFromMembers, customersInMembers } from '../../kernel/projections.ts';
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
 * Customer ids among `ids` that are not customers of the caller's company (lower-cased, each
 * once): one query against the projection for all of them; ids it misses (a customer made a
 * moment ago, whose members event has not arrived yet) are asked of members at once
 * (kernel/projections.ts), never waited for.
 */
export async function notCustomers(ctx: RequestContext, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (!unique.length) return [];
  const known = await ctx.rows(CustomerProjection, { customerId: { $in: unique } }, { fields: ['customerId'] });
  const projected = new Set(known.map((c) => c.customerId.toLowerCase()));
  const missing = unique.filter((id) => !projected.has(id));
  if (!missing.length) return [];
  const members = new Set((await customersInMembers(ctx, missing)).map((c) => c.customerId));
  return missing.filter((id) => !members.has(id));
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
