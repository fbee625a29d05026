import type { IncomingMessage, ServerResponse } from 'node:http';
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

/**
 * Plain HTTP routes a subgraph answers outside GraphQL (a payment provider's webhook, a hosted
 * page): paths under its prefixes reach `handle` in the subgraph's own process, whichever
 * topology runs (the router calls it in process when embedded, forwards the request when
 * distributed), so only the subgraph touches its tables.
 */
export interface HttpRoutes {
  prefixes: string[];
  handle(runtime: Runtime, req: IncomingMessage, res: ServerResponse, path: string): Promise<unknown>;
}

/** What every subgraph exports from its index.ts. */
export interface SubgraphModule {
  name: string;
  /** The PostgreSQL schema that holds this subgraph's tables. */
  schema: string;
  entities: EntitySchema[];
  migrations: Migration[];
  buildSchema(): Promise<GraphQLSchema>;
  /** Other subgraphs' events this one handles (see kernel/events.ts). */
  subscriptions?: Subscriptions;
  /** Background jobs this one runs, by queue name (`<subgraph>.<job>`), scheduled or sent with `tx.runAt`. */
  jobs?: Record<string, JobDefinition>;
  /** What its constraints' violations mean to a client (constraint name → catalogue error). */
  constraints?: ConstraintTable;
  /** Plain HTTP routes outside GraphQL (see HttpRoutes). */
  http?: HttpRoutes;
  /** Work to do once the database is migrated and the queue runs (seeding, backfills). */
  onStart?(runtime: Runtime): Promise<void>;
}
