import type { Runtime } from '../runtime.ts';

export interface DeadJob {
  id: string;
  queue: string;
  data: unknown;
  error: string;
  attempts: number;
  failedAt: string;
}

/**
 * Jobs that used up their retries (pg-boss's `failed` state): what an operator lists and retries
 * with `npm run jobs` (see docs/operations/deployment.md).
 */
export async function listDeadJobs(runtime: Runtime, limit = 100): Promise<DeadJob[]> {
  const schema = runtime.jobs.schema;
  const { rows } = await runtime.jobs.boss
    .getDb()
    .executeSql(`select id, name, data, output, retry_count, completed_on from ${schema}.job where state = 'failed' order by completed_on desc limit $1`, [
      limit,
    ]);
  return rows.map((r) => ({
    id: r.id,
    queue: r.name,
    data: r.data,
    error: String(r.output?.message ?? JSON.stringify(r.output ?? null)),
    attempts: Number(r.retry_count) + 1,
    failedAt: new Date(r.completed_on).toISOString(),
  }));
}

/** Puts a dead job back in its queue for another round of attempts. */
export async function retryDeadJob(runtime: Runtime, queue: string, id: string): Promise<boolean> {
  const result = (await runtime.jobs.boss.retry(queue, id)) as { affected?: number };
  return (result.affected ?? 0) > 0;
}
