import { defineEntity, p, type EntityManager, type EntityMetadataWithProperties } from '@mikro-orm/core';
import {
  AliasNode,
  BinaryOperationNode,
  ColumnNode,
  IdentifierNode,
  JoinNode,
  OperationNodeTransformer,
  OperatorNode,
  PrimitiveValueListNode,
  QueryNode,
  ReferenceNode,
  TableNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
  type DeleteQueryNode,
  type InsertQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type SelectQueryNode,
  type UnknownRow,
  type UpdateQueryNode,
} from 'kysely';

/**
 * Tenancy by construction. A tenant entity is declared with `tenantEntity({...})` instead of
 * `defineEntity({...})`: it gets a `companyId` column (`company_id`) and the tenant filter, and a
 * new row takes its company from the entity manager's tenant (set by RequestContext.authenticate,
 * RequestContext.system or scopedTo). Services never write `companyId`; a row made for another
 * company than the context's (organisation signup, the demo seed) passes `companyId` explicitly,
 * where it can be seen.
 */

/** The filter parameters RequestContext sets on its entity manager. */
export interface TenantParams {
  companyId: string;
}

/** Thrown when a tenant row is created, or a statement names a tenant table, with no company in scope. */
export class NoTenantError extends Error {
  constructor(what: string) {
    super(`${what} needs a company: the context has none (authenticate a tenant, or use RequestContext.system(runtime, companyId))`);
    this.name = 'NoTenantError';
  }
}

/** The company an entity manager is scoped to, or undefined when it is not scoped. */
export function tenantOf(em: Pick<EntityManager, 'getFilterParams'>): string | undefined {
  return em.getFilterParams<Partial<TenantParams>>('tenant')?.companyId ?? undefined;
}

/** The company an entity manager is scoped to; throws when there is none (fail closed). */
export function requireTenant(em: Pick<EntityManager, 'getFilterParams'>, what: string): string {
  const companyId = tenantOf(em);
  if (!companyId) throw new NoTenantError(what);
  return companyId;
}

/**
 * The tenant filter every tenant entity carries. It is on by default and takes the caller's
 * company from `em.setFilterParams('tenant', …)`; a query made without a company fails instead of
 * returning every tenant's rows. Code that must cross tenants says so locally with
 * `{ filters: { tenant: false } }`.
 */
export const tenantFilter = {
  tenant: {
    name: 'tenant',
    cond: (args: TenantParams) => ({ companyId: args.companyId }),
    default: true,
    args: true,
  },
};

/** `onCreate` of every tenant entity's `companyId`: the entity manager's tenant, or an error. */
export function companyOfNewRow(entity: object, em: EntityManager): string {
  return requireTenant(em, `A new ${entity.constructor?.name ?? 'tenant row'}`);
}

/**
 * The `company_id` column of a tenant entity. `tenantEntity` adds it; an entity declares it itself
 * only to make it part of a composite primary key (`companyId: companyIdColumn().primary()`).
 */
export const companyIdColumn = () => p.uuid().onCreate(companyOfNewRow);

type CompanyIdColumn = ReturnType<typeof companyIdColumn>;
type WithCompanyId<TProperties> = Omit<{ companyId: CompanyIdColumn }, keyof TProperties> & TProperties;

/**
 * `defineEntity` for a tenant table: adds `companyId` (set from the context on create, optional in
 * `em.create` data) and the tenant filter. See the top of this file.
 */
export function tenantEntity<const TName extends string, const TTableName extends string, const TProperties extends Record<string, unknown>>(
  meta: Omit<EntityMetadataWithProperties<TName, TTableName, WithCompanyId<TProperties>>, 'properties' | 'filters'> & { properties: TProperties },
) {
  const properties = { companyId: companyIdColumn(), ...meta.properties } as WithCompanyId<TProperties>;
  return defineEntity<TName, TTableName, WithCompanyId<TProperties>>({ ...meta, properties, filters: tenantFilter });
}

/** Whether an entity's metadata carries the tenant filter (the tenancy test uses it). */
export function isTenantMeta(meta: { filters?: Record<string, unknown> }): boolean {
  return !!meta.filters?.tenant;
}

/**
 * Tenancy of `ctx.query` (kernel/query.ts): every tenant table a statement names — in `from`, a
 * join, `update`, `delete … using`, at any depth of subqueries — is limited to the context's
 * company, and a row inserted into one takes it (or must already carry it). A statement naming a
 * tenant table with no company in scope is refused. Tables are recognised by their PostgreSQL
 * names, after CamelCasePlugin has turned property names into columns; text written with `sql`
 * is not read, so a table is always named through the builder, never inside `sql`.
 */
export class TenantPlugin implements KyselyPlugin {
  private readonly scope: TenantScope;

  constructor(facts: ReadonlyMap<string, { tenant: boolean }>, companyId: string | undefined) {
    this.scope = new TenantScope(facts, companyId);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.scope.transformNode(args.node, args.queryId);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const COMPANY_COLUMN = 'company_id';

/**
 * The tables that belong to no company. A process knows the entities of its own subgraphs only
 * (a distributed subgraph, the router), yet the kernel reads other subgraphs' tables there
 * (members' customers, sessions, domains): so a table is a tenant's unless it is listed here or an
 * entity this process knows says otherwise. An unknown table is scoped, never read whole
 * (tenancy.test.ts checks this list against every entity).
 */
export const TABLES_OF_NO_COMPANY: ReadonlySet<string> = new Set([
  'members.company',
  'members.login_link',
  'members.signup_request',
  'kernel.outbox_message',
  'kernel.idempotency_key',
  'kernel.event_receipt',
  'kernel.credential_use',
  'kernel.plan',
  'kernel.rate_window',
  'commerce.sandbox_intent',
  'commerce.backfill',
  'content.backfill',
  'messaging.backfill',
  'loyalty.backfill',
  'campaigns.backfill',
]);

class TenantScope extends OperationNodeTransformer {
  constructor(
    private readonly facts: ReadonlyMap<string, { tenant: boolean }>,
    private readonly companyId: string | undefined,
  ) {
    super();
  }

  /** How a statement refers to a from-item that is a tenant table (its alias, or its name), or undefined. */
  private tenantRef(item: OperationNode | undefined): TableNode | undefined {
    if (!item) return undefined;
    const aliased = AliasNode.is(item) ? item : undefined;
    const table = aliased ? aliased.node : item;
    if (!TableNode.is(table)) return undefined;
    // Every table of ours is in its subgraph's schema; a name without one is a CTE's.
    if (!table.table.schema) return undefined;
    const name = `${table.table.schema.name}.${table.table.identifier.name}`;
    const known = this.facts.get(name);
    if (known ? !known.tenant : TABLES_OF_NO_COMPANY.has(name)) return undefined;
    if (!this.companyId) throw new NoTenantError(`A statement on ${name}`);
    return aliased && IdentifierNode.is(aliased.alias) ? TableNode.create(aliased.alias.name) : table;
  }

  private sameCompany(ref: TableNode): BinaryOperationNode {
    return BinaryOperationNode.create(ReferenceNode.create(ColumnNode.create(COMPANY_COLUMN), ref), OperatorNode.create('='), ValueNode.create(this.companyId));
  }

  /** The statement limited to the company for each tenant table among `items`. */
  private scoped<T extends SelectQueryNode | UpdateQueryNode | DeleteQueryNode>(node: T, items: readonly (OperationNode | undefined)[]): T {
    let out = node;
    for (const item of items) {
      const ref = this.tenantRef(item);
      if (ref) out = QueryNode.cloneWithWhere(out, this.sameCompany(ref));
    }
    if (!out.joins?.length) return out;
    const joins: JoinNode[] = [];
    for (const join of out.joins) {
      const ref = this.tenantRef(join.table);
      if (!ref) joins.push(join);
      // A cross join has no `on`: its condition joins the statement's.
      else if (join.joinType === 'CrossJoin' || join.joinType === 'LateralCrossJoin') {
        joins.push(join);
        out = QueryNode.cloneWithWhere(out, this.sameCompany(ref));
      } else joins.push(JoinNode.cloneWithOn(join, this.sameCompany(ref)));
    }
    return { ...out, joins };
  }

  protected override transformSelectQuery(node: SelectQueryNode, queryId?: QueryId): SelectQueryNode {
    const out = super.transformSelectQuery(node, queryId);
    return this.scoped(out, out.from?.froms ?? []);
  }

  protected override transformUpdateQuery(node: UpdateQueryNode, queryId?: QueryId): UpdateQueryNode {
    const out = super.transformUpdateQuery(node, queryId);
    return this.scoped(out, [out.table, ...(out.from?.froms ?? [])]);
  }

  protected override transformDeleteQuery(node: DeleteQueryNode, queryId?: QueryId): DeleteQueryNode {
    const out = super.transformDeleteQuery(node, queryId);
    return this.scoped(out, [...out.from.froms, ...(out.using?.tables ?? [])]);
  }

  protected override transformInsertQuery(node: InsertQueryNode, queryId?: QueryId): InsertQueryNode {
    const out = super.transformInsertQuery(node, queryId);
    const into = out.into && this.tenantRef(out.into);
    if (!into) return out;
    const columns = out.columns ?? [];
    const at = columns.findIndex((c) => c.column.name === COMPANY_COLUMN);
    if (!out.values || !ValuesNode.is(out.values)) {
      // insert … select: the select is scoped; it must say the company column itself.
      if (at < 0) throw new Error(`insert into ${tableName(into)} … select must give ${COMPANY_COLUMN}`);
      return out;
    }
    const rows = out.values.values.map((row) => {
      const values = PrimitiveValueListNode.is(row) ? row.values : row.values.map((v) => (ValueNode.is(v) ? v.value : v));
      if (at >= 0) {
        if (values[at] !== this.companyId) throw new Error(`A row inserted into ${tableName(into)} for another company than the context's`);
        return row;
      }
      return PrimitiveValueListNode.is(row)
        ? PrimitiveValueListNode.create([...row.values, this.companyId])
        : ValueListNode.create([...row.values, ValueNode.create(this.companyId)]);
    });
    if (at >= 0) return out;
    return { ...out, columns: [...columns, ColumnNode.create(COMPANY_COLUMN)], values: ValuesNode.create(rows) };
  }
}

const tableName = (node: TableNode) => `${node.table.schema?.name ?? 'public'}.${node.table.identifier.name}`;
