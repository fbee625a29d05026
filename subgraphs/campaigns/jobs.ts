import type { Kysely } from 'kysely';
import type { JobDefinition } from '../kernel/events.ts';
import type { Tables } from '../kernel/tables.ts';
import { sweepDue } from '../kernel/sweeps.ts';
import { BATCH_QUEUE, reviveStalled, runBatch, START_QUEUE, startDue, TICK_QUEUE } from './services/sending.ts';

/** A send whose chain of batch jobs has shown no sign of life for this long is started again. */
const STALLED_MS = 10 * 60_000;

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
      const campaigns = (q: Kysely<Tables>) => q.selectFrom('campaigns.campaign').select(['companyId', 'id']).limit(100);
      await sweepDue(
        ctx,
        data,
        (q, now) => campaigns(q).where('status', '=', 'SCHEDULED').where('scheduledAt', '<=', now).orderBy('scheduledAt'),
        (scoped, row) => startDue(scoped, row.id),
      );
      const stalledSince = (now: Date) => new Date(now.getTime() - STALLED_MS);
      await sweepDue(
        ctx,
        data,
        (q, now) => campaigns(q).where('status', '=', 'SENDING').where('runnerSeenAt', '<', stalledSince(now)).orderBy('runnerSeenAt'),
        (scoped, row) => reviveStalled(scoped, row.id),
      );
    },
  },
};
