import type { RequestContext } from '../../kernel/context.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import type { CustomerFacts } from '../../members/events.ts';
import { CommerceCustomer } from '../entities/customer-projection.ts';
import { backfillFromMembers, customersInMembers } from '../../kernel/projections.ts';

/**
 * Records what members says of a customer, idempotently: a repeat changes nothing, and facts older
 * than those held (events of one customer may be handled out of order) never overwrite newer ones.
 */
export async function upsertCustomer(tx: RequestContext, facts: CustomerFacts, at: Date): Promise<void> {
  await tx.tenantSql`insert into commerce.customer_projection as p (company_id, customer_id, name, last_name, email, phone, updated_at)
     values (${COMPANY}, ${facts.customerId}, ${facts.name}, ${facts.lastName}, ${facts.email}, ${facts.phone}, ${at})
     on conflict (company_id, customer_id) do update set
       name = excluded.name, last_name = excluded.last_name, email = excluded.email, phone = excluded.phone, updated_at = excluded.updated_at
     where p.updated_at <= excluded.updated_at`;
}

export async function forgetCustomer(tx: RequestContext, customerId: string): Promise<void> {
  await tx.tenantSql`delete from commerce.customer_projection where company_id = ${COMPANY} and customer_id = ${customerId}`;
}

/** What commerce needs of a customer: their contact facts for an order. */
export type KnownCustomer = Pick<CustomerFacts, 'customerId' | 'name' | 'lastName' | 'email' | 'phone'>;

/**
 * The customer of the caller's company with this id, or null: from the projection, or, for a
 * customer made a moment ago whose members event has not arrived yet, from members itself
 * (kernel/projections.ts).
 */
export async function findCustomer(ctx: RequestContext, customerId: string): Promise<KnownCustomer | null> {
  const projected = await ctx.row(CommerceCustomer, { customerId: customerId.toLowerCase() });
  if (projected) return { customerId: projected.customerId, name: projected.name, lastName: projected.lastName ?? null, email: projected.email ?? null, phone: projected.phone ?? null };
  const [member] = await customersInMembers(ctx, [customerId]);
  return member ? { customerId: member.customerId, name: member.name, lastName: member.lastName, email: member.email, phone: member.phone } : null;
}

/** Customers that existed before commerce kept its projection (kernel/projections.ts). */
export const backfillCustomers = (runtime: Runtime) =>
  backfillFromMembers(
    runtime,
    'commerce',
    'customer_projection',
    `insert into commerce.customer_projection (company_id, customer_id, name, last_name, email, phone, updated_at)
     select company_id, id, name, last_name, email, phone, updated_at from members.customer
     on conflict (company_id, customer_id) do nothing`,
  );
