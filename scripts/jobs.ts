import 'reflect-metadata';
import { startPlatform } from '../router/platform.ts';
import { runMain } from '../router/startup.ts';
import { loadConfig } from '../subgraphs/kernel/config.ts';
import { listDeadJobs, retryDeadJob } from '../subgraphs/kernel/jobs/ops.ts';

/**
 * Operator tool for jobs that used up their retries (events, messages, scheduled work):
 *   npm run jobs                   lists them
 *   npm run jobs -- retry ID       puts one back in its queue
 *   npm run jobs -- retry-all      puts every one back
 * On PGlite, stop the server first (one process per data folder).
 */
const [command, id] = process.argv.slice(2);
runMain(async () => {
  const platform = await startPlatform(loadConfig(), [], { consume: false });
  try {
    const dead = await listDeadJobs(platform.runtime, 1000);
    if (!command) {
      if (!dead.length) console.log('No dead jobs.');
      for (const job of dead) console.log(`${job.id}  ${job.queue}  attempts=${job.attempts}  failed ${job.failedAt}\n    ${job.error}`);
    } else if (command === 'retry' || command === 'retry-all') {
      const chosen = command === 'retry' ? dead.filter((j) => j.id === id) : dead;
      if (command === 'retry' && !chosen.length) throw new Error(`No dead job ${id ?? '(give an id)'}`);
      for (const job of chosen) console.log(`${job.id} ${(await retryDeadJob(platform.runtime, job.queue, job.id)) ? 'retried' : 'not retried'}`);
    } else {
      throw new Error(`Unknown command "${command}"; use no command, "retry ID" or "retry-all"`);
    }
  } finally {
    await platform.stop();
  }
});
