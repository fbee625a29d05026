/**
 * The domain events campaigns publishes: none yet. When it publishes one, declare its name and
 * payload type here, as ../members/events.ts does.
 */
export {};
