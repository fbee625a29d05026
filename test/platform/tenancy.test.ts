import { describe, expect, it } from 'vitest';
import { Resource } from '../../subgraphs/booking/entities/resource.ts';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import { newId } from '../../subgraphs/kernel/ids.ts';
import type { Kysely } from 'kysely';
import { queryAcrossTenants, tableFacts } from '../../subgraphs/kernel/query.ts';
import { companyOfNewRow, isTenantMeta, NoTenantError, TABLES_OF_NO_COMPANY } from '../../subgraphs/kernel/tenancy.ts';
import { testServer } from '../support/server.ts';

/**
 * Tables with a `company_id` whose entity does not carry the tenant filter, each for a reason.
 * Anything else with a company_id is a tenant table and must be declared with `tenantEntity`.
 */
const CROSS_TENANT: Record<string, string> = {
  'kernel.outbox_message': 'the kernel delivers messages of every company (and of signups, with no company); tenants never list it',
  'members.signup_request': 'looked up by request id before its company exists; company_id is set when the signup completes',
  'members.login_link': 'exchanged by its token from a request that has no company yet',
};

async function server() {
  const { app } = await testServer();
  return app.platform.runtime;
}

function allMetadata(runtime: Awaited<ReturnType<typeof server>>): any[] {
  const all: any = runtime.db.orm.getMetadata().getAll();
  return (all instanceof Map ? [...all.values()] : Object.values(all)).filter((m: any) => m.tableName && !m.embeddable && !m.abstract);
}

describe('tenancy by construction', () => {
  it('every table with a company_id is a tenant entity, or is allowed across tenants for a stated reason', async () => {
    const runtime = await server();
    const rows = await runtime.db.orm.em.getConnection().execute<{ table_schema: string; table_name: string }[]>(
      `select table_schema, table_name from information_schema.columns
          where column_name = 'company_id' and table_schema not in ('pg_catalog', 'information_schema', 'pgboss')
          order by 1, 2`,
    );
    const tables = rows.map((r) => `${r.table_schema}.${r.table_name}`);
    const byTable = new Map(allMetadata(runtime).map((m) => [`${m.schema}.${m.tableName}`, m]));
    const problems: string[] = [];
    for (const table of tables) {
      const meta = byTable.get(table);
      if (table in CROSS_TENANT) {
        if (meta && isTenantMeta(meta)) problems.push(`${table} is allowed across tenants but its entity has the tenant filter: drop it from the allow-list`);
        continue;
      }
      if (!meta) problems.push(`${table} has company_id but no entity: map it with tenantEntity, or allow it across tenants with a reason`);
      else if (!isTenantMeta(meta)) problems.push(`${table} (${meta.className}) has company_id but not the tenant filter: declare it with tenantEntity`);
      else if (meta.properties.companyId?.onCreate !== companyOfNewRow)
        problems.push(`${table} (${meta.className}): companyId must come from tenantEntity/companyIdColumn (set from the context)`);
    }
    for (const table of Object.keys(CROSS_TENANT)) if (!tables.includes(table)) problems.push(`${table} is in the allow-list but has no company_id column`);
    // And the other way round: a tenant filter on a table without company_id would fail every query.
    for (const [table, meta] of byTable)
      if (isTenantMeta(meta) && !tables.includes(table)) problems.push(`${table} has the tenant filter but no company_id column`);
    expect(problems).toEqual([]);
    expect(tables.length).toBeGreaterThan(20);
  });

  it("every table of ours that is no tenant's is listed as such, so a process without its entity still scopes the rest", async () => {
    const runtime = await server();
    const rows = await runtime.db.orm.em.getConnection().execute<{ name: string }[]>(
      `select table_schema || '.' || table_name as name from information_schema.tables
          where table_schema in (?) and table_type = 'BASE TABLE' order by 1`,
      [[...new Set(allMetadata(runtime).map((m) => m.schema!))]],
    );
    const tenant = new Set(
      allMetadata(runtime)
        .filter(isTenantMeta)
        .map((m) => `${m.schema}.${m.tableName}`),
    );
    // kernel.schema_migration is the migrator's own, read by nothing else.
    const ofNoCompany = rows.map((r) => r.name).filter((t) => !tenant.has(t) && t !== 'kernel.schema_migration');
    expect([...TABLES_OF_NO_COMPANY].sort()).toEqual(ofNoCompany.sort());
  });

  it('a tenant row takes its company from the context, and cannot be made without one', async () => {
    const runtime = await server();
    const companyId = newId();
    const scoped = RequestContext.system(runtime, companyId);
    const row = scoped.em.create(Resource, { name: 'Room', type: 'room', active: true });
    expect(row.companyId).toBe(companyId);
    scoped.em.clear();

    const none = RequestContext.system(runtime, null);
    expect(() => none.em.create(Resource, { name: 'Room', type: 'room', active: true })).toThrow(NoTenantError);
    await expect(none.transaction(async (tx) => tx.em.create(Resource, { name: 'Room', type: 'room', active: true }))).rejects.toThrow(NoTenantError);
    // Made for another company explicitly (signup, the demo seed): allowed, and visible in the code.
    const other = newId();
    const explicit = none.em.create(Resource, { name: 'Room', type: 'room', active: true, companyId: other });
    expect(explicit.companyId).toBe(other);
    none.em.clear();
  });

  it('every tenant table read through ctx.query is limited to the context company, and refused without one', async () => {
    const runtime = await server();
    const a = RequestContext.system(runtime, newId());
    const b = RequestContext.system(runtime, newId());
    const none = RequestContext.system(runtime, null);
    await a.transaction(async (tx) => {
      tx.em.create(Resource, { name: 'A room', type: 'room', active: true });
    });
    await b.transaction(async (tx) => {
      tx.em.create(Resource, { name: 'B room', type: 'room', active: true });
    });
    const tenantTables = [...tableFacts(a.em)].filter(([, facts]) => facts.tenant).map(([name]) => name);
    expect(tenantTables.length).toBeGreaterThan(40);
    // Any table by its name: what a statement names is checked at run time, whatever its type says.
    const anyTable = (ctx: RequestContext) => ctx.query as unknown as Kysely<Record<string, { companyId: string }>>;
    for (const table of tenantTables) {
      const rows = await anyTable(a).selectFrom(table).select('companyId').execute();
      expect(
        rows.filter((r) => r.companyId !== a.companyId),
        table,
      ).toEqual([]);
      await expect(anyTable(none).selectFrom(table).select('companyId').execute(), table).rejects.toThrow(NoTenantError);
    }
    expect(await anyTable(a).selectFrom('booking.resource').select('companyId').execute()).toEqual([{ companyId: a.companyId }]);
    // Crossing tenants is possible, and says so.
    const across = await (queryAcrossTenants(a.em).query as unknown as Kysely<Record<string, { companyId: string }>>)
      .selectFrom('booking.resource')
      .select('companyId')
      .where('companyId', 'in', [a.companyId, b.companyId])
      .execute();
    expect(across.map((r) => r.companyId).sort()).toEqual([a.companyId, b.companyId].sort());
  });
});
