import type { Subscriptions } from '../kernel/events.ts';

/** Other subgraphs' events booking handles: none yet (add handlers here, as content's subscriptions.ts does). */
export const bookingSubscriptions: Subscriptions = {};
