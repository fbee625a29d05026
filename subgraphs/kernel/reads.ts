import type { EntityMetadata, EntityName, EntityProperty } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { protocol, type messages } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import type { Pool } from 'pg';
import { logStatement, type Database } from './database.ts';
import { NoTenantError } from './tenancy.ts';

/**
 * Reads that write nothing return plain rows, not tracked entities: building entities (property
 * definitions, the identity map, the unit of work's snapshots) was a quarter to a third of the CPU
 * of a list read. A plain row has the entity's property names and JavaScript values (Date for
 * timestamps, numbers for bigints, parsed JSON), so resolvers map it exactly as they map an entity.
 *
 * A read is scoped by the entity's own MikroORM filters, evaluated as `em.find` evaluates them: the
 * tenant filter every tenant entity carries takes the company from the entity manager's filter
 * parameters, and a read with no company in scope fails instead of reaching every tenant's rows.
 * Turning a filter off is explicit and local (`{ filters: { tenant: false } }`), as with `em.find`.
 *
 * Rows travel as one JSON value per statement (`json_agg`): PGlite decodes each field of each row
 * in JavaScript, and one JSON document of a page costs less than half as much as its fields. A page
 * and its total are one statement. Each row is a JSON array of its values in the read's order of
 * properties, not an object naming them: PostgreSQL writes every name into every row otherwise,
 * ~40% of the document (a page of 20 services run alone on PGlite, with PGlite's decoding and
 * `JSON.parse`: 629 → 519 µs; making the rows from the arrays costs less than parsing objects did).
 *
 * Writes stay on tracked entities, inside `ctx.transaction()`.
 */

/** The plain values of an entity: its properties, without methods or symbol keys. */
export type Row<T> = { [K in keyof T as K extends symbol ? never : T[K] extends (...args: any[]) => any ? never : K]: T[K] };

/**
 * A condition on properties, in MikroORM's words: a value (`null` is `is null`, a list is `in`), or
 * operators `$eq $ne $in $nin $gt $gte $lt $lte $like $ilike`; `$or` and `$and` combine conditions.
 */
export type Where<T> = { [K in keyof Row<T>]?: unknown } & { $or?: Where<T>[]; $and?: Where<T>[] };

export type OrderBy<T> = { [K in keyof Row<T>]?: 'asc' | 'desc' | 'asc nulls last' | 'asc nulls first' | 'desc nulls last' | 'desc nulls first' };

export interface ReadOptions<T> {
  orderBy?: OrderBy<T>;
  limit?: number;
  offset?: number;
  /** Only these properties (the order's properties are added). */
  fields?: (keyof Row<T>)[];
  /** Filters to turn off for this read, as in `em.find`: `{ tenant: false }` crosses tenants, and says so. */
  filters?: Record<string, boolean>;
}

/**
 * Rows of `entity` through a link entity (a many-to-many table): each row comes once per link, with
 * the link's `select` properties added. Both sides are scoped by their own filters. The statement
 * gives each row once and each link as its values (the staff of 20 services that share 2 staff
 * members: 2 rows and 40 pairs of ids, not 40 rows), and the rows are repeated here.
 */
export interface Through<L> {
  entity: EntityName<L>;
  /** The link's property that holds the row's primary key. */
  on: keyof Row<L>;
  where: Where<L>;
  select: (keyof Row<L>)[];
}

/** A statement to run: `?` placeholders and their values. */
export interface Statement {
  text: string;
  params: unknown[];
  /** The names of its columns, in order. */
  columns?: string[];
  /** Its parameters are already `$1`, `$2`… (a statement compiled by Kysely). */
  numbered?: boolean;
}

interface Shape {
  meta: EntityMetadata<any>;
  table: string;
  /** The quoted column of every stored property (scalars and many-to-one keys). */
  columns: Map<string, string>;
  /** Properties whose JSON value is an ISO timestamp string to turn into a Date. */
  dates: string[];
}

const shapes = new WeakMap<object, Shape>();

function shapeOf(em: EntityManager, entity: EntityName<any>): Shape {
  const meta = em.getMetadata().get(entity as any) as EntityMetadata<any>;
  let shape = shapes.get(meta);
  if (!shape) {
    const columns = new Map<string, string>();
    const dates: string[] = [];
    for (const prop of meta.props as EntityProperty<any>[]) {
      if (prop.persist === false || prop.formula || prop.fieldNames?.length !== 1) continue;
      if (prop.kind !== 'scalar' && prop.kind !== 'm:1') continue;
      columns.set(prop.name, quote(prop.fieldNames[0]));
      if (prop.runtimeType === 'Date') dates.push(prop.name);
    }
    shape = { meta, table: `${quote(meta.schema!)}.${quote(meta.tableName)}`, columns, dates };
    shapes.set(meta, shape);
  }
  return shape;
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

function column(shape: Shape, alias: string, property: string): string {
  const col = shape.columns.get(property);
  if (!col) throw new Error(`${shape.meta.className} has no stored property "${property}"`);
  return `${alias}.${col}`;
}

const COMPARISONS: Record<string, string> = { $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=', $like: 'like', $ilike: 'ilike' };

/** One property's condition as SQL, its values appended to `params`. */
function condition(col: string, value: unknown, params: unknown[], where: string): string {
  if (value === undefined) throw new Error(`${where}: a condition on ${col} is undefined (say null, or leave the property out)`);
  if (value === null) return `${col} is null`;
  if (Array.isArray(value)) return inList(col, value, params, false);
  if (typeof value !== 'object' || value instanceof Date) {
    params.push(value);
    return `${col} = ?`;
  }
  const parts: string[] = [];
  for (const [op, operand] of Object.entries(value as Record<string, unknown>)) {
    if (op === '$in' || op === '$nin') {
      if (!Array.isArray(operand)) throw new Error(`${where}: ${op} on ${col} needs a list`);
      parts.push(inList(col, operand, params, op === '$nin'));
    } else if (op === '$eq' && operand === null) parts.push(`${col} is null`);
    else if (op === '$ne' && operand === null) parts.push(`${col} is not null`);
    else if (COMPARISONS[op]) {
      if (operand === undefined) throw new Error(`${where}: ${op} on ${col} is undefined`);
      params.push(operand);
      parts.push(`${col} ${COMPARISONS[op]} ?`);
    } else throw new Error(`${where}: unsupported operator ${op} on ${col}`);
  }
  if (!parts.length) throw new Error(`${where}: an empty condition on ${col}`);
  return parts.join(' and ');
}

function inList(col: string, list: unknown[], params: unknown[], negate: boolean): string {
  // An empty `in` matches nothing and an empty `not in` everything, as MikroORM reads them.
  if (!list.length) return negate ? 'true' : 'false';
  // One array parameter whatever the list's length, so the statement's text (and its prepared plan) is the same.
  params.push(arrayLiteral(list));
  return negate ? `not (${col} = any(?))` : `${col} = any(?)`;
}

/** A PostgreSQL array literal (`{"a","b"}`) of ids, texts or numbers; its element type comes from the column. */
function arrayLiteral(list: unknown[]): string {
  return `{${list
    .map((v) => {
      if (v === null || v === undefined || typeof v === 'object') throw new Error(`a list condition holds ${v === null ? 'null' : typeof v}: only ids, texts and numbers`);
      return `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    })
    .join(',')}}`;
}

/** A where object as SQL on `alias`; `true` when it says nothing. */
function conditions(shape: Shape, alias: string, where: Record<string, unknown>, params: unknown[]): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (key === '$or' || key === '$and') {
      if (!Array.isArray(value)) throw new Error(`${shape.meta.className}: ${key} needs a list of conditions`);
      if (!value.length) {
        parts.push(key === '$or' ? 'false' : 'true');
        continue;
      }
      parts.push(`(${value.map((w) => conditions(shape, alias, w, params)).join(key === '$or' ? ' or ' : ' and ')})`);
    } else {
      parts.push(condition(column(shape, alias, key), value, params, shape.meta.className));
    }
  }
  return parts.length ? parts.join(' and ') : 'true';
}

/**
 * The conditions of the entity's active filters, as `em.find` applies them: each filter declared on
 * the entity that is on by default (or turned on in `options`) and not turned off, with its
 * parameters from the entity manager. A filter that needs parameters and has none fails the read.
 */
function filterConditions(em: EntityManager, shape: Shape, alias: string, params: unknown[], choices: Record<string, boolean> = {}): string[] {
  const parts: string[] = [];
  for (const filter of Object.values((shape.meta.filters ?? {}) as Record<string, { name: string; cond: any; default?: boolean; args?: boolean }>)) {
    if (!(choices[filter.name] ?? filter.default ?? false)) continue;
    let cond = filter.cond;
    if (typeof cond === 'function') {
      const args = em.getFilterParams(filter.name);
      if (!args && filter.args !== false && cond.length > 0) {
        if (filter.name === 'tenant') throw new NoTenantError(`Reading ${shape.meta.className}`);
        throw new Error(`No arguments provided for filter '${filter.name}'`);
      }
      cond = cond(args, 'read', em);
      if (cond && typeof cond.then === 'function') throw new Error(`Filter '${filter.name}' of ${shape.meta.className} is asynchronous; plain reads need a synchronous condition`);
    }
    parts.push(conditions(shape, alias, cond ?? {}, params));
  }
  return parts;
}

/** `order by` terms: on the table's columns (`t`), or on the selected properties of the rows (`r`). */
function orderClause<T>(shape: Shape, alias: 't' | 'r', orderBy: OrderBy<T> | undefined): string[] {
  return Object.entries(orderBy ?? {}).map(([property, direction]) => {
    if (!/^(asc|desc)( nulls (first|last))?$/i.test(String(direction))) throw new Error(`${shape.meta.className}: bad order direction "${direction}" for ${property}`);
    return `${alias === 't' ? column(shape, 't', property) : `r.${quote(property)}`} ${direction}`;
  });
}

/**
 * `select … from <entity> where <filters> and <where>`, the properties as column aliases so the
 * rows' keys are property names (or `count(*)` of the same rows).
 */
function select<T>(em: EntityManager, entity: EntityName<T>, where: Where<T>, options: ReadOptions<T>, params: unknown[], extra: { through?: Through<any>; count?: boolean } = {}): { sql: string; shape: Shape; names: string[] } {
  const shape = shapeOf(em, entity);
  const wanted = options.fields ? new Set<string>([...(options.fields as string[]), ...Object.keys(options.orderBy ?? {})]) : undefined;
  const names = [...shape.columns.keys()].filter((p) => !wanted || wanted.has(p));
  const list = names.map((p) => `t.${shape.columns.get(p)} as ${quote(p)}`);
  const parts = filterConditions(em, shape, 't', params, options.filters);
  const { through } = extra;
  if (through) {
    const link = shapeOf(em, through.entity);
    parts.push(`${column(shape, 't', keyOf(shape))} in (select ${column(link, 'l', through.on as string)} from ${link.table} as l where ${linkConditions(em, through, params, options.filters)})`);
  }
  parts.push(conditions(shape, 't', where as Record<string, unknown>, params));
  let sql = `select ${extra.count ? 'count(*)' : list.join(', ')} from ${shape.table} as t where ${parts.filter((p) => p !== 'true').join(' and ') || 'true'}`;
  if (extra.count) return { sql, shape, names };
  const order = orderClause(shape, 't', options.orderBy);
  if (order.length) sql += ` order by ${order.join(', ')}`;
  if (options.limit != null) {
    sql += ' limit ?';
    params.push(options.limit);
  }
  if (options.offset) {
    sql += ' offset ?';
    params.push(options.offset);
  }
  return { sql, shape, names };
}

function keyOf(shape: Shape): string {
  const pk = shape.meta.primaryKeys;
  if (pk.length !== 1) throw new Error(`${shape.meta.className}: a read through a link needs a single primary key`);
  return pk[0];
}

/** The link rows of a read through them (alias `l`), by their own filters and the read's `where`. */
function linkConditions(em: EntityManager, through: Through<any>, params: unknown[], filters: Record<string, boolean> | undefined): string {
  const link = shapeOf(em, through.entity);
  const parts = [...filterConditions(em, link, 'l', params, filters), conditions(link, 'l', through.where as Record<string, unknown>, params)];
  return parts.filter((p) => p !== 'true').join(' and ') || 'true';
}

/** The links of a read through them as one JSON array: each link the array of the row's key and the link's `select` values. */
function linksOf(em: EntityManager, through: Through<any>, params: unknown[], filters: Record<string, boolean> | undefined): string {
  const link = shapeOf(em, through.entity);
  const values = [through.on, ...through.select].map((p) => column(link, 'l', p as string)).join(', ');
  return `select coalesce(json_agg(json_build_array(${values})), '[]'::json) from ${link.table} as l where ${linkConditions(em, through, params, filters)}`;
}

/** The rows of a select as one JSON array, in its order, each row the array of its `names`' values. */
function aggregate<T>(sql: string, shape: Shape, names: string[], orderBy: OrderBy<T> | undefined): string {
  // PostgreSQL's FUNC_MAX_ARGS; no entity of ours comes near it.
  if (names.length > 100) throw new Error(`${shape.meta.className}: a plain read gives at most 100 properties (json_build_array's arguments); ask for fewer (fields)`);
  const order = orderClause(shape, 'r', orderBy);
  return `select coalesce(json_agg(json_build_array(${names.map((p) => `r.${quote(p)}`).join(', ')})${order.length ? ` order by ${order.join(', ')}` : ''}), '[]'::json) from (${sql}) as r`;
}

/**
 * One read: scalar subqueries that each give one value (`rows`: the rows as a JSON array; `total`
 * for a page), with their parameters in order. Reads made together run as one statement.
 */
export interface Read {
  parts: [column: 'rows' | 'total' | 'links', sql: string][];
  params: unknown[];
  shape: Shape;
  /** The properties of each row, in the order of its values. */
  names: string[];
  /** Through a link: the link's properties each row gets, in the order of a link's values after the row's key. */
  linked?: string[];
}

/** What one read gives back. */
export interface ReadResult {
  rows: unknown;
  total?: number | string;
  links?: unknown;
}

export function rowsRead<T>(em: EntityManager, entity: EntityName<T>, where: Where<T>, options: ReadOptions<T> = {}, through?: Through<any>): Read {
  const params: unknown[] = [];
  const { sql, shape, names } = select(em, entity, where, options, params, { through });
  const rows: Read['parts'][number] = ['rows', aggregate(sql, shape, names, options.orderBy)];
  if (!through) return { parts: [rows], params, shape, names };
  // A limit would count rows, where the reader of rows through links counts links.
  if (options.limit != null || options.offset) throw new Error(`${shape.meta.className}: a read through a link takes no limit or offset`);
  return { parts: [rows, ['links', linksOf(em, through, params, options.filters)]], params, shape, names, linked: through.select as string[] };
}

/** A page and the total of all the rows that match. */
export function pageRead<T>(em: EntityManager, entity: EntityName<T>, where: Where<T>, options: ReadOptions<T> & { limit: number; offset: number }): Read {
  const params: unknown[] = [];
  const count = select(em, entity, where, options, params, { count: true }).sql;
  const { sql, shape, names } = select(em, entity, where, options, params);
  return { parts: [['total', count], ['rows', aggregate(sql, shape, names, options.orderBy)]], params, shape, names };
}

/** Reads as one statement: `select (…) as rows0, (…) as total1, (…) as rows1, …`, one row. */
export function statementOf(reads: Read[]): Statement {
  const parts = reads.flatMap((r, i) => r.parts.map(([column, sql]) => [`${column}${i}`, sql]));
  return {
    text: `select ${parts.map(([column, sql]) => `(${sql}) as ${column}`).join(', ')}`,
    params: reads.flatMap((r) => r.params),
    columns: parts.map(([column]) => column),
  };
}

/** The single row of `statementOf(reads)`, split back into each read's result. */
export function resultsOf(reads: Read[], row: Record<string, unknown>): ReadResult[] {
  return reads.map((_, i) => ({ rows: row[`rows${i}`], total: row[`total${i}`] as number | string | undefined, links: row[`links${i}`] }));
}

/**
 * On PGlite, PostgreSQL runs inside this process, and two things cost as much as running a read:
 * parsing and planning its statement, and the way there (the ORM writes every value into the text,
 * and PGlite's `query` makes six calls into the WebAssembly for one statement: Parse, Describe,
 * Bind, Describe, Execute, Sync). A read's text depends only on its shape (every value is a
 * parameter, a list one array), so outside a transaction each shape is parsed once per database as
 * a named statement, and a read is its Bind, Execute and Sync in one call, its values as text; the
 * first read of a shape sends its Parse in the same call. This holds the ORM's one connection while
 * it runs (as a transaction does), so it never lands inside another request's transaction.
 * Measured on a services list: 0.2 ms per statement against 0.45–0.55 ms through the ORM.
 *
 * Inside a transaction a read goes through the transaction's connection: `execute name(values)`
 * when its shape is parsed already, as it is otherwise (a statement parsed in a transaction that
 * rolls back would be forgotten by the database, not by us). A value other than text, a number or
 * a boolean (a Date, whose text the ORM writes in its own time zone) also takes the ORM's way.
 *
 * On PostgreSQL proper the ORM's way writes every value into the text too, so the server parsed and
 * planned each read anew (as much of its CPU as running it, on a services list), and writing the
 * text was a twelfth of what this process allocated for the list. Outside a transaction a read is
 * sent by the pool's client with its values as parameters under its shape's name: each pooled
 * session parses and plans a shape once, and `pg` keeps which it has prepared on each.
 */
const { serialize } = protocol;
type DataRowMessage = messages.DataRowMessage;
const MAX_PREPARED = 500;
/** Per PGlite instance (its one session holds the statements, whichever ORM opened it): statement text → its prepared name. */
const preparedBySession = new WeakMap<object, { names: Map<string, string>; made: number }>();
/** Per PostgreSQL pool (each session prepares a name when it first runs it): statement text → its name and numbered text. */
const preparedOnPool = new WeakMap<Pool, Map<string, { name: string; text: string }>>();

export async function runRead<R>(db: Database, run: (text: string, params: unknown[]) => Promise<R[]>, statement: Statement, inTransaction: boolean): Promise<R[]> {
  const values = inTransaction ? undefined : textValues(statement.params);
  if (db.kind === 'postgresql') return values ? runOnPool(db, statement, values) : run(statement.text, statement.params);
  if (!db.pglite) return run(statement.text, statement.params);
  const session = db.pglite;
  const prepared = preparedOf(session);
  const { names } = prepared;
  const name = names.get(statement.text);
  if (!values || !statement.columns) {
    return name ? run(`execute ${name}(${statement.params.map(() => '?').join(', ')})`, statement.params) : run(statement.text, statement.params);
  }
  return runPrepared<R>(db, statement, values);
}

/** A read by name on PGlite's one session: its Parse the first time, then Bind, Execute and Sync in one call. */
async function runPrepared<R>(db: Database, statement: Statement, values: (string | null)[]): Promise<R[]> {
  const session = db.pglite!;
  const prepared = preparedOf(session);
  const { names } = prepared;
  const kysely = db.orm.em.getConnection().getClient() as Kysely<any>;
  const columns = statement.columns!;
  return kysely.connection().execute(() =>
    session.runExclusive(async () => {
      // Looked up again under the lock: another read of this shape may have parsed it meanwhile.
      const known = names.get(statement.text);
      // A new shape gets a name while there is room; past it, the unnamed statement ('').
      const id = known ?? (names.size < MAX_PREPARED ? `kernel_read_${++prepared.made}` : '');
      const messages: Uint8Array[] = [];
      if (known === undefined) {
        messages.push(serialize.parse({ name: id, text: statement.numbered ? statement.text : numbered(statement.text) }));
      }
      messages.push(serialize.bind({ statement: id, values }), serialize.execute({}), serialize.sync());
      logStatement(statement.text);
      const answer = await session.execProtocol(concatenated(messages), { syncToFs: false });
      if (known === undefined && id) names.set(statement.text, id);
      const row = answer.messages.find((m): m is DataRowMessage => m.name === 'dataRow');
      if (!row) throw new Error('A read answered no row');
      return [Object.fromEntries(columns.map((column, i) => [column, row.fields[i]]))] as R[];
    }),
  );
}

async function runOnPool<R>(db: Database, statement: Statement, values: (string | null)[]): Promise<R[]> {
  const pool = await (db.orm.em.getConnection() as unknown as { getNativeClient(): Promise<Pool> }).getNativeClient();
  let statements = preparedOnPool.get(pool);
  if (!statements) preparedOnPool.set(pool, (statements = new Map()));
  let prepared = statements.get(statement.text);
  // A new shape gets a name while there is room; past it, the unnamed statement (parsed each time).
  if (!prepared && statements.size < MAX_PREPARED) statements.set(statement.text, (prepared = { name: `kernel_read_${statements.size + 1}`, text: statement.numbered ? statement.text : numbered(statement.text) }));
  logStatement(statement.text);
  const result = await pool.query(prepared ? { ...prepared, values } : { text: statement.numbered ? statement.text : numbered(statement.text), values });
  return result.rows as R[];
}

/** `?` placeholders as PostgreSQL's `$1`, `$2`… */
function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

function preparedOf(session: object) {
  let prepared = preparedBySession.get(session);
  if (!prepared) preparedBySession.set(session, (prepared = { names: new Map(), made: 0 }));
  return prepared;
}

/** Parameters as the text PostgreSQL reads them; undefined when one is not text, a number or a boolean. */
function textValues(params: readonly unknown[]): (string | null)[] | undefined {
  const out: (string | null)[] = [];
  for (const value of params) {
    if (value === null) out.push(null);
    else if (Array.isArray(value)) {
      if (!value.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) return undefined;
      out.push(arrayLiteral(value));
    }
    else if (typeof value === 'string') out.push(value);
    else if (typeof value === 'number' && Number.isFinite(value)) out.push(String(value));
    else if (typeof value === 'boolean') out.push(value ? 'true' : 'false');
    else if (value instanceof Date && !Number.isNaN(value.getTime())) out.push(value.toISOString());
    else return undefined;
  }
  return out;
}

function concatenated(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A read's JSON rows → plain rows: timestamps become Dates (everything else JSON already carries as JavaScript wants it). */
export function toRows<T>(read: Pick<Read, 'shape' | 'names'>, json: unknown): Row<T>[] {
  const list = (typeof json === 'string' ? JSON.parse(json) : json) as unknown[][];
  const { names } = read;
  const dates = read.shape.dates;
  const rows = new Array<Record<string, unknown>>(list.length);
  for (let i = 0; i < list.length; i++) {
    const values = list[i];
    const row: Record<string, unknown> = {};
    for (let j = 0; j < names.length; j++) row[names[j]] = values[j];
    for (const p of dates) {
      const v = row[p];
      if (typeof v === 'string') row[p] = new Date(v);
    }
    rows[i] = row;
  }
  return rows as Row<T>[];
}

/** A read through links: each of its rows once per link of it, with the link's values, in the rows' order. */
export function linkedRows<T>(read: Read, result: ReadResult): Row<T>[] {
  const rows = toRows<T>(read, result.rows) as Record<string, unknown>[];
  const links = (typeof result.links === 'string' ? JSON.parse(result.links) : result.links) as unknown[][];
  const linked = read.linked ?? [];
  const byRow = new Map<unknown, unknown[][]>();
  for (const link of links) {
    const list = byRow.get(link[0]);
    if (list) list.push(link);
    else byRow.set(link[0], [link]);
  }
  const key = keyOf(read.shape);
  const out: Record<string, unknown>[] = [];
  for (const row of rows) {
    for (const link of byRow.get(row[key]) ?? []) {
      const copy = { ...row };
      for (let j = 0; j < linked.length; j++) copy[linked[j]] = link[j + 1];
      out.push(copy);
    }
  }
  return out as Row<T>[];
}

// ---- Reads built with ctx.query (kernel/query.ts), batched as one statement per turn. ----

/** A select built with `ctx.query`, compiled with its plugins: its SQL (`$n` parameters) and what its rows need. */
export interface QueryRead {
  parts: [column: 'rows' | 'total', sql: string][];
  params: readonly unknown[];
  /** Properties of its rows that hold timestamps. */
  dates: readonly string[];
}

/** `$n` parameters of `text` moved up by `by`, for statements put together. */
const shifted = (text: string, by: number) => (by ? text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + by}`) : text);

/** The rows of a compiled select as one JSON array of objects, in its order. */
const jsonRows = (text: string) => `select coalesce(json_agg(r), '[]'::json) from (${text}) as r`;

export function queryRead(compiled: { sql: string; parameters: readonly unknown[] }, dates: readonly string[]): QueryRead {
  return { parts: [['rows', jsonRows(compiled.sql)]], params: compiled.parameters, dates };
}

/** A page (the select with its limit and offset) and the count of every row of the select. */
export function queryPageRead(all: { sql: string; parameters: readonly unknown[] }, page: { sql: string; parameters: readonly unknown[] }, dates: readonly string[]): QueryRead {
  return {
    parts: [
      ['total', `select count(*) from (${all.sql}) as c`],
      ['rows', jsonRows(shifted(page.sql, all.parameters.length))],
    ],
    params: [...all.parameters, ...page.parameters],
    dates,
  };
}

/** Reads as one statement, `select (…) as rows0, (…) as total1, (…) as rows1 …`, with their parameters renumbered. */
export function queryStatementOf(reads: readonly QueryRead[]): Statement {
  const columns: string[] = [];
  const texts: string[] = [];
  let offset = 0;
  reads.forEach((read, i) => {
    for (const [column, text] of read.parts) {
      columns.push(`${column}${i}`);
      texts.push(`(${shifted(text, offset)}) as ${column}${i}`);
    }
    offset += read.params.length;
  });
  return { text: `select ${texts.join(', ')}`, params: reads.flatMap((r) => r.params), columns };
}

const properties = new Map<string, string>();

/** A read's JSON rows → rows with property names and Dates. */
export function queryRows<R>(read: QueryRead, json: unknown, propertyOf: (column: string) => string): R[] {
  const list = (typeof json === 'string' ? JSON.parse(json) : json) as Record<string, unknown>[];
  const out = new Array<R>(list.length);
  for (let i = 0; i < list.length; i++) {
    const source = list[i];
    const row: Record<string, unknown> = {};
    for (const key in source) {
      let name = properties.get(key);
      if (name === undefined) properties.set(key, (name = propertyOf(key)));
      row[name] = source[key];
    }
    for (const key of read.dates) {
      const value = row[key];
      if (typeof value === 'string') row[key] = new Date(value);
    }
    out[i] = row as R;
  }
  return out;
}

/**
 * Runs one statement of reads and gives its one row. Outside a transaction it goes as a prepared
 * statement of its session (see runRead above); inside one, or with a value that has no text form,
 * through `run` (the context's query builder, in its transaction).
 */
export async function runQueryStatement(db: Database, statement: Statement, inTransaction: boolean, run: (text: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>): Promise<Record<string, unknown>> {
  const values = inTransaction ? undefined : textValues(statement.params);
  const numbered = { ...statement, numbered: true };
  if (values && statement.columns && db.kind === 'postgresql') return (await runOnPool<Record<string, unknown>>(db, numbered, values))[0];
  if (values && statement.columns && db.pglite) return (await runPrepared<Record<string, unknown>>(db, numbered, values))[0];
  logStatement(statement.text);
  return (await run(statement.text, statement.params))[0];
}
