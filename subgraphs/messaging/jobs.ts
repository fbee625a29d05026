import type { JobDefinition } from '../kernel/events.ts';
import { MESSAGE_QUEUE } from '../kernel/jobs/queues.ts';
import { SNOOZE_QUEUE, wake } from './services/conversations.ts';
import { deliverQueued } from './services/delivery.ts';
import { handleInbound, INBOUND_QUEUE, type InboundEvent } from './services/inbound.ts';

const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** messaging's background jobs, by queue. */
export const messagingJobs: Record<string, JobDefinition> = {
  // Every outgoing message of every subgraph, handed over through the kernel's outbox.
  [MESSAGE_QUEUE]: { handler: (ctx, data) => deliverQueued(ctx, strings(data.ids)) },
  // A verified webhook delivery's events, for one company (services/webhooks.ts).
  [INBOUND_QUEUE]: { handler: (ctx, data) => handleInbound(ctx, Array.isArray(data.events) ? (data.events as InboundEvent[]) : []) },
  // A snoozed conversation's time came.
  [SNOOZE_QUEUE]: { handler: async (ctx, data) => void (typeof data.conversationId === 'string' && (await wake(ctx, data.conversationId))) },
};
