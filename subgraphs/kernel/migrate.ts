import type { Migration } from './module.ts';
import type { Database } from './database.ts';

/**
 * Applies each subgraph's migrations once, tracked in `kernel.schema_migration`.
 * An advisory lock makes concurrent start-ups (distributed topology) take turns.
 */
export async function runMigrations(db: Database, sets: { name: string; migrations: Migration[] }[]): Promise<string[]> {
  const applied: string[] = [];
  await db.orm.em.fork().transactional(async (em) => {
    const tx = em.getConnection();
    const ctx = em.getTransactionContext();
    // The lock first, then even the bookkeeping table: two processes running `create … if not
    // exists` at once both see nothing and the slower fails on a duplicate catalogue key.
    await tx.execute("select pg_advisory_xact_lock(hashtext('kernel.schema_migration'))", [], 'all', ctx);
    await tx.execute('create schema if not exists kernel', [], 'run', ctx);
    await tx.execute(
      'create table if not exists kernel.schema_migration (module text not null, name text not null, applied_at timestamptz not null default now(), primary key (module, name))',
      [],
      'run',
      ctx,
    );
    const done = new Set(
      (await tx.execute<{ module: string; name: string }[]>('select module, name from kernel.schema_migration', [], 'all', ctx)).map(
        (r) => `${r.module}:${r.name}`,
      ),
    );
    for (const set of sets) {
      for (const migration of set.migrations) {
        const key = `${set.name}:${migration.name}`;
        if (done.has(key)) continue;
        for (const statement of migration.statements) await tx.execute(statement, [], 'run', ctx);
        await tx.execute('insert into kernel.schema_migration (module, name) values (?, ?)', [set.name, migration.name], 'run', ctx);
        applied.push(key);
      }
    }
  });
  return applied;
}
