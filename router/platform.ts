import 'reflect-metadata';
import type { PGlite } from '@electric-sql/pglite';
import type { GraphQLSchema } from 'graphql';
import { AuditLogEntry } from '../subgraphs/kernel/audit.ts';
import { LegacyUsage } from '../subgraphs/kernel/legacy-usage.ts';
import { CLOCK_OVERRIDE_SETTING, systemClock, type Clock } from '../subgraphs/kernel/clock.ts';
import type { Config } from '../subgraphs/kernel/config.ts';
import { declareConstraints } from '../subgraphs/kernel/constraints.ts';
import { openDatabase, prepareDatabase } from '../subgraphs/kernel/database.ts';
import { Jobs } from '../subgraphs/kernel/jobs/index.ts';
import { runMigrations } from '../subgraphs/kernel/migrate.ts';
import { KERNEL_MIGRATIONS } from '../subgraphs/kernel/migrations/index.ts';
import type { SubgraphModule } from '../subgraphs/kernel/module.ts';
import { OutboxMessage } from '../subgraphs/kernel/outbox/index.ts';
import { CompanyPlan, PlanUsage, storePlans } from '../subgraphs/kernel/plans.ts';
import { listenForRevocations, type RevocationListener } from '../subgraphs/kernel/revocation.ts';
import type { Runtime } from '../subgraphs/kernel/runtime.ts';

export interface Platform {
  runtime: Runtime;
  schemas: Map<string, GraphQLSchema>;
  stop(): Promise<void>;
}

export interface PlatformOptions {
  pglite?: PGlite;
  /** Run the workers of these modules' subscriptions and jobs, and deliver messages (default: yes). */
  consume?: boolean;
  clock?: Clock;
  /** pg-boss's schema (a test with its own clock takes its own). */
  jobsSchema?: string;
}

/**
 * Brings up what a process needs to serve some subgraphs: their schemas, the database with the
 * kernel's and those subgraphs' migrations applied, the job queue and its workers and their
 * start-up hooks.
 */
export async function startPlatform(config: Config, modules: SubgraphModule[], options: PlatformOptions = {}): Promise<Platform> {
  const clock = options.clock ?? systemClock;
  // A test clock makes pg-boss read time from a table, on sessions that opt in: all of ours.
  const sessionSettings: Record<string, string> = clock === systemClock ? {} : { [CLOCK_OVERRIDE_SETTING]: 'on' };
  // The schemas need no database: built while PGlite's WebAssembly compiles on V8's threads
  // (~25 ms of a start on an existing data folder, 2-core VM).
  prepareDatabase(config, { pglite: options.pglite });
  const schemas = new Map<string, GraphQLSchema>();
  for (const m of modules) schemas.set(m.name, await m.buildSchema());
  const db = await openDatabase(config, {
    entities: [OutboxMessage, AuditLogEntry, LegacyUsage, CompanyPlan, PlanUsage, ...modules.flatMap((m) => m.entities)],
    pglite: options.pglite,
    sessionSettings,
  });
  let revocations: RevocationListener | undefined;
  try {
    await runMigrations(db, [{ name: 'kernel', migrations: KERNEL_MIGRATIONS }, ...modules]);
    await storePlans(db, config.plans);
    // Credentials ended by another process are refused here at once (subgraphs/kernel/revocation.ts).
    revocations = await listenForRevocations(db, config.databaseUrl);
    for (const m of modules) declareConstraints(m.constraints);
    const runtime = { db, config, clock } as Runtime;
    const consume = options.consume !== false;
    runtime.jobs = await Jobs.start(runtime, {
      consume: consume ? modules : [],
      purge: consume && modules.length > 0,
      clock,
      schema: options.jobsSchema,
      sessionSettings,
    });
    for (const m of modules) await m.onStart?.(runtime);
    return {
      runtime,
      schemas,
      async stop() {
        await runtime.jobs.stop();
        await revocations?.stop();
        await db.close();
      },
    };
  } catch (error) {
    await revocations?.stop();
    await db.close();
    throw error;
  }
}
