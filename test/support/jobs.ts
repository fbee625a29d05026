import type { JobWithMetadata } from 'pg-boss';
import type { Jobs } from '../../subgraphs/kernel/jobs/index.ts';
import { eventually } from './eventually.ts';

/**
 * A queue's jobs whose data contains `data`, oldest first, as pg-boss's public API lists them: what
 * the queue did with each (`state`: created, retry, active, completed, failed) and when it is due
 * (`startAfter`).
 */
export async function jobsIn<T = any>(jobs: Jobs, queue: string, data?: object): Promise<JobWithMetadata<T>[]> {
  const found = await jobs.boss.findJobs<T>(queue, data ? { data } : {});
  return found.sort((a, b) => new Date(a.createdOn).getTime() - new Date(b.createdOn).getTime());
}

/** Their states, oldest first. */
export const jobStates = async (jobs: Jobs, queue: string, data?: object) => (await jobsIn(jobs, queue, data)).map((job) => job.state);

export interface StatementCount {
  /** Statements sent since counting began. */
  sent: number;
  /** Of those, the ones not answered yet. */
  open: number;
  /** Waits until every statement sent has been answered. */
  settled(): Promise<void>;
  /** Stops counting. */
  stop(): void;
}

/**
 * Counts the statements a jobs module sends from now on (pg-boss's and the kernel's, through the
 * kernel's adapter), without reading them.
 */
export function countStatements(jobs: Jobs): StatementCount {
  const db = jobs.boss.getDb();
  const executeSql = db.executeSql;
  const count: StatementCount = {
    sent: 0,
    open: 0,
    settled: () =>
      eventually(
        () => {
          if (count.open) throw new Error(`${count.open} statements of the jobs module still unanswered`);
        },
        { tries: 1000, intervalMs: 10 },
      ),
    stop: () => void (db.executeSql = executeSql),
  };
  db.executeSql = async (text, values) => {
    count.sent++;
    count.open++;
    try {
      return await executeSql.call(db, text, values);
    } finally {
      count.open--;
    }
  };
  return count;
}
