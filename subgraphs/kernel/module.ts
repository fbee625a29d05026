import type { GraphQLSchema } from 'graphql';
import type { EntitySchema } from '@mikro-orm/core';

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
  /** Work to do once the database is migrated (seeding, background loops). */
  onStart?(db: import('./database.ts').Database, config: import('./config.ts').Config): Promise<void>;
}
