import type { JobDefinition } from '../kernel/events.ts';
import { runExpiry } from './services/expiry.ts';
import { EXPIRE_ORDERS_QUEUE } from './services/orders.ts';
import { handleWebhookEvent, WEBHOOK_QUEUE } from './services/payments.ts';
import type { ProviderEvent } from './services/payments/provider.ts';
import { REGISTRATION_WINDOW_QUEUE, runRegistrationWindows } from './services/registration-payments.ts';
import { runSandboxJob, SANDBOX_WEBHOOK_QUEUE, type SandboxJob } from './services/payments/sandbox.ts';

/** commerce's background jobs, by queue. */
export const commerceJobs: Record<string, JobDefinition> = {
  // Unpaid orders expire at the end of their window (runAt per order; the sweep every 5 minutes is a backstop).
  [EXPIRE_ORDERS_QUEUE]: { cron: '*/5 * * * *', handler: async (ctx, data) => void (await runExpiry(ctx, data)) },
  // Paid event registrations' payment windows end (runAt per registration; the sweep is a backstop).
  [REGISTRATION_WINDOW_QUEUE]: { cron: '*/5 * * * *', handler: async (ctx, data) => void (await runRegistrationWindows(ctx, data)) },
  // Verified provider webhooks, applied once each (scoped to the company the event names).
  [WEBHOOK_QUEUE]: { handler: (ctx, data) => handleWebhookEvent(ctx, data.provider as string, data.event as ProviderEvent) },
  // The sandbox provider's own work: processing a payment, sending its webhooks.
  [SANDBOX_WEBHOOK_QUEUE]: { handler: (ctx, data) => runSandboxJob(ctx.runtime, data as unknown as SandboxJob) },
};
