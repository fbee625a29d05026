/**
 * The domain events booking publishes: none yet. When it publishes one, declare its name and
 * payload type here, as ../members/events.ts does (a consumer imports the payload type, never
 * booking's entities):
 *
 *     declare module '../kernel/events.ts' {
 *       interface DomainEvents { 'booking.<aggregate>.<change>': Payload }
 *     }
 */
export {};
