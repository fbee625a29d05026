import type { GraphQLSchema } from 'graphql';
import type { EntitySchema } from '@mikro-orm/core';
import type { ConstraintTable } from './constraints.ts';
import type { JobDefinition, Subscriptions } from './events.ts';
import type { Runtime } from './runtime.ts';

/** One forward-only schema change: plain SQL statements, run in order inside one transaction. */
export interface Migration {
  name: string;
  statements: string[];
}

/** What every subgraph exports from its index.ts. */
export interface SubgraphModule {
  name: string;
  /** The PostgreSQL schema that holds this subgraph's tables. */
  schema: string;
  entities: EntitySchema<any, any>[];
  migrations: Migration[];
  buildSchema(): Promise<GraphQLSchema>;
  /** Other subgraphs' events this one handles (see kernel/events.ts). */
  subscriptions?: Subscriptions;
  /** Background jobs this one runs, by queue name (`<subgraph>.<job>`), scheduled or sent with `tx.runAt`. */
  jobs?: Record<string, JobDefinition>;
  /** What its constraints' violations mean to a client (constraint name → catalogue error). */
  constraints?: ConstraintTable;
  /** Work to do once the database is migrated and the queue runs (seeding, backfills). */
  onStart?(runtime: Runtime): Promise<void>;
}
