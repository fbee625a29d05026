import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Db } from 'pg-boss';
import type { Pool, QueryResult } from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from '../database.ts';
import type { Tables } from '../tables.ts';

/**
 * pg-boss's statements go through the ORM's own connection, never a path of their own:
 * - inside a transaction, through that transaction, so a job or event is written with the change
 *   that causes it and vanishes if it rolls back;
 * - outside one, through the ORM's client, which on PGlite holds the same one-connection lock as
 *   every ORM transaction (a second path into PGlite would interleave with an open transaction).
 * pg-boss also sends parameterless multi-statement scripts (its installer, `BEGIN; …; COMMIT`
 * maintenance blocks): PGlite runs those with `exec` while the lock is held; PostgreSQL with the
 * ORM's pool, whose simple protocol accepts them.
 */
export function transactionDb(trx: Transaction<Tables>): Db {
  return {
    async executeSql(text, values) {
      const result = await trx.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: [...result.rows] };
    },
  };
}

/** pg's own type parsing (timestamps as Date), which pg-boss expects; the ORM's pool keeps them as text. */
const pgTypes = { getTypeParser: pg.types.getTypeParser };

export async function connectionDb(db: Database, sessionSettings: Record<string, string> = {}): Promise<Db> {
  // pg-boss asks for its test clock's session opt-in; the database was opened with it on every session.
  const setSessionStatements = async (statements: string[]) => {
    const missing = statements.filter((s) => !Object.keys(sessionSettings).some((name) => s.includes(name)));
    if (missing.length) throw new Error(`Session settings must be given when the database opens: ${missing.join('; ')}`);
  };
  const connection = db.orm.em.getConnection();
  const kysely = connection.getClient() as Kysely<Tables>;
  if (db.kind === 'pglite') {
    const pglite = (await connection.getNativeClient()) as unknown as PGlite;
    return {
      async executeSql(text, values) {
        // Holding a Kysely connection is holding the ORM's lock on the one PGlite session.
        return kysely.connection().execute(async () => {
          if (values?.length) return { rows: (await pglite.query(text, values)).rows };
          return { rows: (await pglite.exec(text)).flatMap((r) => r.rows ?? []) };
        });
      },
      setSessionStatements,
    };
  }
  const pool = (await connection.getNativeClient()) as unknown as Pool;
  const run = async (text: string, values?: unknown[]) => {
    // Several statements in one text answer with one result each.
    const result: QueryResult | QueryResult[] = await pool.query({ text, values, types: pgTypes });
    return { rows: Array.isArray(result) ? result.flatMap((r) => r.rows ?? []) : result.rows };
  };
  return {
    executeSql: run,
    setSessionStatements,
  };
}
