import 'reflect-metadata';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { inject } from 'vitest';
import { startPlatform, type Platform } from '../../router/platform.ts';
import type { Clock } from '../../subgraphs/kernel/clock.ts';
import { loadConfig } from '../../subgraphs/kernel/config.ts';
import { createPglite } from '../../subgraphs/kernel/database.ts';
import type { JobDefinition, Subscriptions } from '../../subgraphs/kernel/events.ts';
import type { SubgraphModule } from '../../subgraphs/kernel/module.ts';

/**
 * A subgraph made for a test: its own subscriptions and jobs, run by the real kernel. It owns no
 * tables and serves a one-field schema.
 */
export function probeModule(name: string, parts: { subscriptions?: Subscriptions; jobs?: Record<string, JobDefinition> }): SubgraphModule {
  const schema = new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { probe: { type: GraphQLString } } }) });
  return { name, schema: 'kernel', entities: [], migrations: [], buildSchema: async () => schema, ...parts };
}

/**
 * A platform of its own beside the worker's server: on PGlite a fresh copy of the run's snapshot,
 * on PostgreSQL the run's database. Its job queue lives in a schema of its own, so a test clock
 * (which pg-boss applies to a whole schema) moves time for this platform only.
 */
export async function probePlatform(modules: SubgraphModule[], options: { clock?: Clock; jobsSchema: string; pglite?: 'fresh' | 'none' }): Promise<Platform> {
  const databaseUrl = inject('databaseUrl');
  const snapshot = inject('snapshotFile');
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-probe-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    JWT_SECRET: 'test-secret-test-secret-test-secret-42',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const pglite = snapshot ? await createPglite(undefined, new Blob([readFileSync(snapshot)])) : undefined;
  return startPlatform(config, modules, { pglite, clock: options.clock, jobsSchema: options.jobsSchema });
}
