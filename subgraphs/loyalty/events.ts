/**
 * The domain events loyalty publishes: none yet (gift redemptions will). When it publishes one,
 * declare its name and payload type here, as ../members/events.ts does.
 */
export {};
