import type { messages } from '@electric-sql/pglite';
import { protocol } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import type { Pool } from 'pg';
import { logStatement, type Database } from './database.ts';
import type { Tables } from './tables.ts';

/**
 * How `ctx.all`, `ctx.first`, `ctx.page` and `ctx.find` run the selects built with `ctx.query`
 * (kernel/query.ts): the reads of one turn of the event loop (the DataLoaders of one list's fields:
 * a service's category, staff and resources) travel as one statement, a page with its total, each
 * read's rows as one JSON value (PGlite decodes each field of each row in JavaScript, and one JSON
 * document of a page costs less than half as much as its fields).
 *
 * On PGlite, PostgreSQL runs inside this process, and parsing and planning a statement cost as much
 * as running a read; PGlite's `query` also makes six calls into the WebAssembly for one statement
 * (Parse, Describe, Bind, Describe, Execute, Sync) and has no prepared-statement API. A read's text
 * depends only on its shape (every value is a parameter, a list one array), so outside a
 * transaction each shape is parsed once per database as a named statement, and a read is its Bind,
 * Execute and Sync in one call; the first read of a shape sends its Parse in the same call. This
 * holds the ORM's one connection while it runs (as a transaction does), so it never lands inside
 * another request's transaction. Measured on a services list: 0.2 ms per statement against
 * 0.45–0.55 ms through the ORM (decision 0015). On PostgreSQL proper a read outside a transaction
 * is sent by the pool's client under its shape's name: each pooled session parses and plans a
 * shape once. Inside a transaction a read goes through the transaction's connection.
 */

/** A statement to run: `$n` placeholders and their values. */
export interface Statement {
  text: string;
  params: unknown[];
  /** The names of its columns, in order. */
  columns?: string[];
}

const { serialize } = protocol;
type DataRowMessage = messages.DataRowMessage;
const MAX_PREPARED = 500;
/** Per PGlite instance (its one session holds the statements, whichever ORM opened it): statement text → its prepared name. */
const preparedBySession = new WeakMap<object, { names: Map<string, string>; made: number }>();
/** Per PostgreSQL pool (each session prepares a name when it first runs it): statement text → its name. */
const preparedOnPool = new WeakMap<Pool, Map<string, { name: string; text: string }>>();

/** A read by name on PGlite's one session: its Parse the first time, then Bind, Execute and Sync in one call. */
async function runPrepared<R>(db: Database, statement: Statement, values: (string | null)[]): Promise<R[]> {
  const session = db.pglite!;
  const prepared = preparedOf(session);
  const { names } = prepared;
  const kysely = db.orm.em.getConnection().getClient() as Kysely<Tables>;
  const columns = statement.columns!;
  return kysely.connection().execute(() =>
    session.runExclusive(async () => {
      // Looked up again under the lock: another read of this shape may have parsed it meanwhile.
      const known = names.get(statement.text);
      // A new shape gets a name while there is room; past it, the unnamed statement ('').
      const id = known ?? (names.size < MAX_PREPARED ? `kernel_read_${++prepared.made}` : '');
      const messages: Uint8Array[] = [];
      if (known === undefined) {
        messages.push(serialize.parse({ name: id, text: statement.text }));
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
  if (!prepared && statements.size < MAX_PREPARED)
    statements.set(statement.text, (prepared = { name: `kernel_read_${statements.size + 1}`, text: statement.text }));
  logStatement(statement.text);
  const result = await pool.query(prepared ? { ...prepared, values } : { text: statement.text, values });
  return result.rows as R[];
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
    } else if (typeof value === 'string') out.push(value);
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

/** A PostgreSQL array literal (`{"a","b"}`) of ids, texts or numbers; its element type comes from the column. */
function arrayLiteral(list: unknown[]): string {
  return `{${list
    .map((v) => {
      if (v === null || v === undefined || typeof v === 'object')
        throw new Error(`a list condition holds ${v === null ? 'null' : typeof v}: only ids, texts and numbers`);
      return `"${String(v).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    })
    .join(',')}}`;
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
export function queryPageRead(
  all: { sql: string; parameters: readonly unknown[] },
  page: { sql: string; parameters: readonly unknown[] },
  dates: readonly string[],
): QueryRead {
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
export async function runQueryStatement(
  db: Database,
  statement: Statement,
  inTransaction: boolean,
  run: (text: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>,
): Promise<Record<string, unknown>> {
  const values = inTransaction ? undefined : textValues(statement.params);
  if (values && statement.columns && db.kind === 'postgresql') return (await runOnPool<Record<string, unknown>>(db, statement, values))[0];
  if (values && statement.columns && db.pglite) return (await runPrepared<Record<string, unknown>>(db, statement, values))[0];
  logStatement(statement.text);
  return (await run(statement.text, statement.params))[0];
}
