import { p } from '@mikro-orm/core';
import type { Database } from './database.ts';
import { newId } from './ids.ts';
import { scopedQuery } from './query.ts';
import { tenantEntity } from './tenancy.ts';

/**
 * Calls of each legacy /connect/v1 route per company (facades/rest/legacy.ts counts them), so a
 * sunset can be decided on data. The kernel's table like the audit log: the facade writes it,
 * members reads it for the merchant (get_legacy_usage).
 */
export const LegacyUsage = tenantEntity({
  name: 'LegacyUsage',
  schema: 'kernel',
  tableName: 'legacy_usage',
  properties: {
    id: p.uuid().primary(),
    route: p.text(),
    calls: p.bigint('number'),
    firstCalledAt: p.datetime(),
    lastCalledAt: p.datetime(),
  },
  uniques: [{ name: 'legacy_usage_company_route_uniq', properties: ['companyId', 'route'] }],
  checks: [{ name: 'legacy_usage_calls_check', expression: 'calls > 0' }],
});
export type LegacyUsage = InstanceType<typeof LegacyUsage.class>;

/** One more call of a route by a company: one statement, exact under concurrent calls. */
export async function recordLegacyCall(db: Database, companyId: string, route: string, at: Date): Promise<void> {
  const usage = 'kernel.legacy_usage';
  await scopedQuery(db.orm.em, companyId)
    .query.insertInto(usage)
    .values({ id: newId(), route, calls: 1, firstCalledAt: at, lastCalledAt: at })
    .onConflict((oc) =>
      oc
        .columns(['companyId', 'route'])
        .doUpdateSet((eb) => ({ calls: eb(`${usage}.calls`, '+', 1), lastCalledAt: eb.fn('greatest', [`${usage}.lastCalledAt`, 'excluded.lastCalledAt']) })),
    )
    .execute();
}
