import { RequestContext } from '../../kernel/context.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { COMPANY } from '../../kernel/tenancy.ts';
import type { CustomerFacts } from '../../members/events.ts';
import { CommerceCustomer } from '../entities/customer-projection.ts';
import { readAllowingLag } from '../../kernel/projections.ts';

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

/** The customer of the caller's company with this id, or null (outside a transaction: it waits for the subscriber's). */
export async function findCustomer(ctx: RequestContext, customerId: string) {
  return readAllowingLag(() => ctx.row(CommerceCustomer, { customerId: customerId.toLowerCase() }));
}

const BACKFILL = 'customer_projection';

/**
 * Once per database: copies the customers that existed before commerce kept its projection (later
 * changes arrive as events, subscribed to before this runs). The one place commerce reads members'
 * table, at start; an advisory lock makes processes starting together take turns.
 */
export async function backfillCustomers(runtime: Runtime): Promise<boolean> {
  return RequestContext.system(runtime, null).transaction(async (tx) => {
    await tx.sql(`select pg_advisory_xact_lock(hashtext('commerce.backfill'))`);
    const claimed = await tx.sql('insert into commerce.backfill (name, done_at) values (?, ?) on conflict (name) do nothing returning name', [BACKFILL, tx.now()]);
    if (!claimed.length) return false;
    const [{ present }] = await tx.sql<{ present: boolean }>('select to_regclass(?) is not null as present', ['members.customer']);
    if (present) {
      await tx.sql(
        `insert into commerce.customer_projection (company_id, customer_id, name, last_name, email, phone, updated_at)
         select company_id, id, name, last_name, email, phone, updated_at from members.customer
         on conflict (company_id, customer_id) do nothing`,
        [],
        { acrossTenants: true },
      );
    }
    return true;
  });
}
