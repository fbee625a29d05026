/**
 * The domain events content publishes: none yet (it consumes members' customer events, see
 * subscriptions.ts). When it publishes one, declare its name and payload type here, as
 * ../members/events.ts does (a consumer imports the payload type, never content's entities):
 *
 *     declare module '../kernel/events.ts' {
 *       interface DomainEvents { 'content.<aggregate>.<change>': Payload }
 *     }
 */
export {};
