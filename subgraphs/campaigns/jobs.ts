import type { JobDefinition } from '../kernel/events.ts';
import { sweepDue } from '../kernel/sweeps.ts';
import { BATCH_QUEUE, reviveStalled, runBatch, START_QUEUE, startDue, TICK_QUEUE } from './services/sending.ts';

type Due = { company_id: string; id: string };

/** campaigns' background jobs, by queue. */
export const campaignsJobs: Record<string, JobDefinition> = {
  // One batch of a send; each queues the next (services/sending.ts).
  [BATCH_QUEUE]: { handler: async (ctx, data) => void (await runBatch(ctx, data)) },
  // A scheduled campaign's own start, queued for its time.
  [START_QUEUE]: { handler: async (ctx, data) => void (typeof data.campaignId === 'string' && (await startDue(ctx, data.campaignId))) },
  // The backstop, every minute: scheduled campaigns whose start job was lost, and sends whose chain
  // of batch jobs shows no sign of life for 10 minutes.
  [TICK_QUEUE]: {
    cron: '* * * * *',
    handler: async (ctx, data) => {
      const scheduled = "select company_id, id from campaigns.campaign where status = 'SCHEDULED' and scheduled_at <= ?";
      await sweepDue<Due>(ctx, data, { select: scheduled, orderBy: 'scheduled_at', limit: 100 }, (scoped, row) => startDue(scoped, row.id));
      const stalled = "select company_id, id from campaigns.campaign where status = 'SENDING' and runner_seen_at < ?::timestamptz - interval '10 minutes'";
      await sweepDue<Due>(ctx, data, { select: stalled, orderBy: 'runner_seen_at', limit: 100 }, (scoped, row) => reviveStalled(scoped, row.id));
    },
  },
};
