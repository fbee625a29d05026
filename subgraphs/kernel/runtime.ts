import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database } from './database.ts';
import type { Jobs } from './jobs/index.ts';

/** What a process holds for its whole life and every request context reaches: database, configuration, clock, queue. */
export interface Runtime {
  db: Database;
  config: Config;
  clock: Clock;
  jobs: Jobs;
}
