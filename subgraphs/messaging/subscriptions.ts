import type { Subscriptions } from '../kernel/events.ts';

/** Other subgraphs' events messaging handles: none yet (add handlers here, as content's subscriptions.ts does). */
export const messagingSubscriptions: Subscriptions = {};
