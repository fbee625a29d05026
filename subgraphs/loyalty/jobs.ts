import type { JobDefinition } from '../kernel/events.ts';
import { expirePoints } from './services/expiry.ts';

export const EXPIRE_POINTS_QUEUE = 'loyalty.expire-points';

/** loyalty's background jobs, by queue. */
export const loyaltyJobs: Record<string, JobDefinition> = {
  // Earned points expire by lots, once a day (a run finds the lots past their date, oldest first).
  [EXPIRE_POINTS_QUEUE]: { cron: '15 3 * * *', handler: async (ctx, data) => void (await expirePoints(ctx, data)) },
};
