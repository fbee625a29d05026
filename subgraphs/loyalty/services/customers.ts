import type { RequestContext } from '../../kernel/context.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { backfillFromMembers, customersInMembers } from '../../kernel/projections.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import { LoyaltyCustomer } from '../entities/customer-projection.ts';

/** Records a customer of the company (members' events; a repeat changes nothing). */
export async function rememberCustomer(tx: RequestContext, customerId: string, at: Date): Promise<void> {
  await tx.tenantSql`insert into loyalty.customer_projection (company_id, customer_id, updated_at) values (${COMPANY}, ${customerId}, ${at})
    on conflict (company_id, customer_id) do nothing`;
}

export async function forgetCustomer(tx: RequestContext, customerId: string): Promise<void> {
  await tx.tenantSql`delete from loyalty.customer_projection where company_id = ${COMPANY} and customer_id = ${customerId}`;
}

/**
 * Whether the id is a customer of the caller's company: the projection, or, for a customer made a
 * moment ago whose members event has not arrived yet, members itself (kernel/projections.ts).
 */
export async function isCustomer(ctx: RequestContext, customerId: string): Promise<boolean> {
  if (await ctx.row(LoyaltyCustomer, { customerId: customerId.toLowerCase() })) return true;
  return (await customersInMembers(ctx, [customerId])).length > 0;
}

/** Customers that existed before loyalty kept its projection (kernel/projections.ts). */
export const backfillCustomers = (runtime: Runtime) =>
  backfillFromMembers(
    runtime,
    'loyalty',
    'customer_projection',
    `insert into loyalty.customer_projection (company_id, customer_id, updated_at)
     select company_id, id, updated_at from members.customer on conflict (company_id, customer_id) do nothing`,
  );
