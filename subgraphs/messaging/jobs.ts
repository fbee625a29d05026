import type { JobDefinition } from '../kernel/events.ts';
import { MESSAGE_QUEUE } from '../kernel/jobs/queues.ts';
import { deliverQueued } from './services/delivery.ts';

/** messaging's background jobs, by queue. */
export const messagingJobs: Record<string, JobDefinition> = {
  // Every outgoing message of every subgraph, handed over through the kernel's outbox.
  [MESSAGE_QUEUE]: { handler: (ctx, data) => deliverQueued(ctx, Array.isArray(data.ids) ? data.ids.filter((id): id is string => typeof id === 'string') : []) },
};
