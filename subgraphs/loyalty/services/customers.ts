import { RequestContext } from '../../kernel/context.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { readAllowingLag } from '../../kernel/projections.ts';
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

/** Whether the id is a customer of the caller's company (members' event may lag a new customer by a moment). */
export async function isCustomer(ctx: RequestContext, customerId: string): Promise<boolean> {
  return !!(await readAllowingLag(() => ctx.row(LoyaltyCustomer, { customerId: customerId.toLowerCase() })));
}

/**
 * Once per database: the customers that existed before loyalty kept its projection (later ones
 * arrive as events, subscribed to before this runs). As commerce's, the one read of members'
 * table, at start, under an advisory lock.
 */
export async function backfillCustomers(runtime: Runtime): Promise<boolean> {
  return RequestContext.system(runtime, null).transaction(async (tx) => {
    await tx.sql(`select pg_advisory_xact_lock(hashtext('loyalty.backfill'))`);
    const claimed = await tx.sql('insert into loyalty.backfill (name, done_at) values (?, ?) on conflict (name) do nothing returning name', ['customer_projection', tx.now()]);
    if (!claimed.length) return false;
    const [{ present }] = await tx.sql<{ present: boolean }>('select to_regclass(?) is not null as present', ['members.customer']);
    if (present) {
      await tx.sql(
        `insert into loyalty.customer_projection (company_id, customer_id, updated_at)
         select company_id, id, updated_at from members.customer on conflict (company_id, customer_id) do nothing`,
        [],
        { acrossTenants: true },
      );
    }
    return true;
  });
}
