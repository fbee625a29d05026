import type { EntityMetadata, EntityProperty } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AggregateFunctionNode,
  AliasNode,
  CamelCasePlugin,
  ColumnNode,
  IdentifierNode,
  PostgresQueryCompiler,
  ReferenceNode,
  SelectAllNode,
  SelectQueryNode,
  TableNode,
  sql,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { logStatement, sqlLog } from './database.ts';
import type { Tables } from './tables.ts';
import { TenantPlugin } from './tenancy.ts';

/**
 * The one way to read and write with SQL: `ctx.query`, a Kysely query builder over MikroORM's own
 * connection (inside `ctx.transaction()`, its transaction). Tables are named as PostgreSQL names
 * them (`booking.service`) and columns as the entities name their properties (`priceMinor`);
 * `kernel/tables.ts` types both from the entity definitions. Three plugins, in this order:
 * - Kysely's CamelCasePlugin: `priceMinor` is the column `price_minor`, and back in the rows
 *   (JSON values keep their own keys);
 * - tenancy (kernel/tenancy.ts): every tenant table the statement names is limited to the
 *   context's company;
 * - values (below): timestamp columns come back as Dates, as the entities have them (the driver
 *   gives PostgreSQL's text, which MikroORM converts for its entities but Kysely does not).
 * Tracked entities (`tx.em`) stay the way to change a row the unit of work loaded.
 */

/** What the plugins know of a table: whether it is a tenant's, and its timestamp columns. */
export interface TableFacts {
  tenant: boolean;
  /** Timestamp columns (PostgreSQL names). */
  dates: ReadonlySet<string>;
}

const factsByMetadata = new WeakMap<object, ReadonlyMap<string, TableFacts>>();

/** The kernel's tables that no entity describes (kernel/kernel-tables.ts): none is a company's; their timestamp columns. */
const TABLES_WITHOUT_ENTITY: Record<string, string[]> = {
  'kernel.idempotency_key': ['created_at', 'committed_at'],
  'kernel.event_receipt': ['handled_at'],
  'kernel.credential_use': ['last_used_at'],
  'kernel.plan': [],
  'kernel.rate_window': ['window_start'],
};

/** `schema.table` → its facts, for every entity MikroORM knows. */
export function tableFacts(em: EntityManager): ReadonlyMap<string, TableFacts> {
  const metadata = em.getMetadata();
  let facts = factsByMetadata.get(metadata);
  if (!facts) {
    const map = new Map<string, TableFacts>();
    for (const meta of metadata.getAll().values() as Iterable<EntityMetadata>) {
      if (!meta.tableName || meta.embeddable || meta.virtual) continue;
      const dates = new Set<string>();
      for (const prop of meta.props as EntityProperty[]) {
        if (prop.runtimeType === 'Date' && prop.fieldNames?.length === 1 && prop.persist !== false) dates.add(prop.fieldNames[0]);
      }
      map.set(`${meta.schema ?? 'public'}.${meta.tableName}`, { tenant: !!meta.filters?.tenant, dates });
    }
    for (const [table, dates] of Object.entries(TABLES_WITHOUT_ENTITY)) map.set(table, { tenant: false, dates: new Set(dates) });
    factsByMetadata.set(metadata, (facts = map));
  }
  return facts;
}

/** `schema.table` of a table node. */
export function tableName(node: TableNode): string {
  return `${node.table.schema?.name ?? 'public'}.${node.table.identifier.name}`;
}

const camelCase = new CamelCasePlugin({ maintainNestedObjectKeys: true });

/** Property name of a column, as CamelCasePlugin gives it back. */
export const propertyOf = (column: string) => (camelCase as unknown as { camelCase(s: string): string }).camelCase(column);

/**
 * `= any(list)` for a `where`: one array parameter whatever the list's length, so the statement's
 * text (and its prepared plan) stays the same; an empty list matches nothing. Typed `never`, the
 * type every column's type takes in: it stands for a value of whichever column it is compared with.
 */
export const anyOf = (list: readonly (string | number)[]) => sql<never>`any(${list})`;

/**
 * Timestamps as Dates, in the rows of a statement: the output columns that are a timestamp column
 * of a table the statement reads (`t.created_at`, `t.*`, `*`), or `min`/`max` of one.
 */
class ValuesPlugin implements KyselyPlugin {
  private readonly dates = new WeakMap<object, string[]>();
  private readonly nodes = new WeakMap<object, RootOperationNode>();

  constructor(private readonly facts: ReadonlyMap<string, TableFacts>) {}

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const dates = dateOutputs(node, this.facts);
    if (dates.length) this.dates.set(queryId, dates);
    if (sqlLog.keep) this.nodes.set(queryId, node);
    return node;
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const node = this.nodes.get(queryId);
    logStatement(node ? new PostgresQueryCompiler().compileQuery(node, queryId).sql : 'kysely');
    const dates = this.dates.get(queryId);
    if (dates) for (const row of result.rows) toDates(row, dates);
    return result;
  }

  /** The date outputs of a statement (with its plugins applied), for rows read another way (kernel/reads.ts). */
  datesOf(node: RootOperationNode): string[] {
    return dateOutputs(node, this.facts);
  }
}

/** Turns the named properties of a row from PostgreSQL's timestamp text (or JSON's ISO text) into Dates. */
export function toDates(row: Record<string, unknown>, dates: readonly string[]): void {
  for (const key of dates) {
    const value = row[key];
    if (typeof value === 'string') row[key] = new Date(value);
  }
}

/** The property names of a select's (or a returning clause's) outputs that hold timestamps. */
function dateOutputs(node: RootOperationNode, facts: ReadonlyMap<string, TableFacts>): string[] {
  const query = node as SelectQueryNode & { returning?: { selections: readonly OperationNode[] }; into?: TableNode; table?: OperationNode };
  const selections = SelectQueryNode.is(node) ? node.selections : query.returning?.selections;
  if (!selections?.length) return [];
  // The tables in scope, by the name a reference uses (alias, or the table's own name).
  const tables = new Map<string, TableFacts>();
  const add = (item: OperationNode | undefined) => {
    if (!item) return;
    const aliased = AliasNode.is(item) ? item : undefined;
    const table = aliased ? aliased.node : item;
    if (!TableNode.is(table)) return;
    const fact = facts.get(tableName(table));
    if (!fact) return;
    const alias = aliased && IdentifierNode.is(aliased.alias) ? aliased.alias.name : undefined;
    tables.set(alias ?? table.table.identifier.name, fact);
  };
  if (SelectQueryNode.is(node)) {
    node.from?.froms.forEach(add);
    node.joins?.forEach((j) => add(j.table));
  } else {
    add(query.into ?? query.table);
    (node as { from?: { froms: readonly OperationNode[] } }).from?.froms.forEach(add);
  }
  const out = new Set<string>();
  const columnDate = (table: string | undefined, column: string) =>
    table ? !!tables.get(table)?.dates.has(column) : [...tables.values()].some((t) => t.dates.has(column));
  for (const selection of selections) {
    const s = (selection as unknown as { selection?: OperationNode }).selection ?? selection;
    if (SelectAllNode.is(s)) {
      for (const t of tables.values()) for (const c of t.dates) out.add(propertyOf(c));
      continue;
    }
    const aliased = AliasNode.is(s) ? s : undefined;
    const expression = aliased ? aliased.node : s;
    const name = aliased && IdentifierNode.is(aliased.alias) ? aliased.alias.name : undefined;
    const ref = referenceOf(expression);
    if (!ref) continue;
    if (ref.column === '*') {
      const t = ref.table ? tables.get(ref.table) : undefined;
      for (const c of t?.dates ?? []) out.add(propertyOf(c));
    } else if (columnDate(ref.table, ref.column)) out.add(propertyOf(name ?? ref.column));
  }
  return [...out];
}

/** The column an output reads: `t.col`, `col`, `t.*`, or `min(…)`/`max(…)` of one. */
function referenceOf(node: OperationNode): { table?: string; column: string } | undefined {
  if (AggregateFunctionNode.is(node) && (node.func === 'min' || node.func === 'max') && node.aggregated.length === 1) return referenceOf(node.aggregated[0]);
  if (ColumnNode.is(node)) return { column: node.column.name };
  if (ReferenceNode.is(node)) {
    const table = node.table ? node.table.table.identifier.name : undefined;
    if (SelectAllNode.is(node.column)) return { table, column: '*' };
    if (ColumnNode.is(node.column)) return { table, column: node.column.column.name };
  }
  return undefined;
}

export interface QueryScope {
  query: Kysely<Tables>;
  values: ValuesPlugin;
}

/**
 * The query builder of an entity manager (of its transaction, when it is in one), scoped to
 * `companyId` (none: a statement naming a tenant table is refused).
 */
export function scopedQuery(em: EntityManager, companyId: string | undefined): QueryScope {
  const facts = tableFacts(em);
  const values = new ValuesPlugin(facts);
  const query = (em.getKysely() as unknown as Kysely<Tables>).withPlugin(camelCase).withPlugin(new TenantPlugin(facts, companyId)).withPlugin(values);
  return { query, values };
}

/** The query builder for the kernel's own work with no company (its own tables, which are no tenant's): a tenant table is refused. */
export function systemQuery(em: EntityManager): Kysely<Tables> {
  return scopedQuery(em, undefined).query;
}

/** The same, across every tenant: migrations' backfills and the kernel's own cross-tenant work, which say so. */
export function queryAcrossTenants(em: EntityManager): QueryScope {
  const facts = tableFacts(em);
  const values = new ValuesPlugin(facts);
  const query = (em.getKysely() as unknown as Kysely<Tables>).withPlugin(camelCase).withPlugin(values);
  return { query, values };
}
