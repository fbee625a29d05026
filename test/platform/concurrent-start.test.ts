import { afterAll, describe, expect, inject, it } from 'vitest';
import { MODULES } from '../../router/modules.ts';
import { startPlatform, type Platform } from '../../router/platform.ts';
import { loadConfig } from '../../subgraphs/kernel/config.ts';
import { createDatabase } from '../support/database.ts';

const databaseUrl = inject('databaseUrl');

/**
 * The distributed topology (and docker-compose.yml) starts every subgraph process at once on a
 * database that may be empty: each migrates its own schema and installs the job queue's. They
 * must take turns rather than fail on each other's `create schema` (seen: a duplicate key on
 * pg_namespace when two installed pg-boss together).
 */
describe.runIf(databaseUrl)('subgraph processes starting together on an empty database', () => {
  const platforms: Platform[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await Promise.all(platforms.map((p) => p.stop()));
    await drop?.();
  });

  it('all start, each migration applied once', async () => {
    const db = await createDatabase(databaseUrl!, 'concurrent_start');
    drop = db.drop;
    const config = loadConfig({ DATABASE_URL: db.url, NODE_ENV: 'test', JWT_SECRET: 'test-secret-test-secret-test-secret-42' });
    const started = await Promise.allSettled(MODULES.map((m) => startPlatform(config, [{ ...m, onStart: undefined }], { consume: true })));
    for (const s of started) if (s.status === 'fulfilled') platforms.push(s.value);
    expect(started.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);
    const [first] = platforms;
    const rows = await first.runtime.db.orm.em
      .getConnection()
      .execute<{ module: string; n: number }[]>(
        'select module, count(*)::int as n, count(distinct name)::int as names from kernel.schema_migration group by module',
      );
    for (const row of rows) expect(row.n, row.module).toBe((row as unknown as { names: number }).names);
    expect(rows.map((r) => r.module).sort()).toEqual(['kernel', ...MODULES.map((m) => m.name)].sort());
  }, 120_000);
});
