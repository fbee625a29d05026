import 'reflect-metadata';
import type { PGlite } from '@electric-sql/pglite';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../subgraphs/kernel/config.ts';
import { openDatabase, type Database } from '../subgraphs/kernel/database.ts';
import { runMigrations } from '../subgraphs/kernel/migrate.ts';
import { KERNEL_MIGRATIONS } from '../subgraphs/kernel/migrations/index.ts';
import type { SubgraphModule } from '../subgraphs/kernel/module.ts';
import { OutboxMessage, startOutboxDispatcher } from '../subgraphs/kernel/outbox/index.ts';
import { transportsFor } from '../subgraphs/kernel/outbox/transports.ts';

export interface Platform {
  db: Database;
  schemas: Map<string, GraphQLSchema>;
  stop(): Promise<void>;
}

/**
 * Brings up what a process needs to serve some subgraphs: the database with the kernel's and
 * those subgraphs' migrations applied, their start-up hooks, the outbox dispatcher and the schemas.
 */
export async function startPlatform(config: Config, modules: SubgraphModule[], options: { pglite?: PGlite; dispatch?: boolean } = {}): Promise<Platform> {
  const db = await openDatabase(config, { entities: [OutboxMessage, ...modules.flatMap((m) => m.entities)], pglite: options.pglite });
  try {
    await runMigrations(db, [{ name: 'kernel', migrations: KERNEL_MIGRATIONS }, ...modules]);
    for (const m of modules) await m.onStart?.(db, config);
    const schemas = new Map<string, GraphQLSchema>();
    for (const m of modules) schemas.set(m.name, await m.buildSchema());
    const dispatcher = options.dispatch === false ? null : startOutboxDispatcher(db, transportsFor(config));
    return {
      db,
      schemas,
      async stop() {
        await dispatcher?.stop();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
