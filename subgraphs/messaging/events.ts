/**
 * The domain events messaging publishes: none yet. When it publishes one (a message received, a
 * delivery's status), declare its name and payload type here, as ../members/events.ts does.
 */
export {};
