import type { RequestContext } from './context.ts';

/**
 * Every domain event of the product, by name. Each producing subgraph adds its own names and
 * payload types in its `events.ts` (declaration merging), so a consumer imports the payload type,
 * never the producer's entities:
 *
 *     declare module '../kernel/events.ts' {
 *       interface DomainEvents { 'members.customer.created': CustomerCreated }
 *     }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DomainEvents {}

export type EventName = keyof DomainEvents & string;

/** What travels on the queue: the payload with the facts every consumer needs to be idempotent and scoped. */
export interface DomainEvent<N extends EventName = EventName> {
  /** Unique per publication; a subscriber records it and skips a repeat. */
  id: string;
  name: N;
  companyId: string;
  occurredAt: string;
  payload: DomainEvents[N];
}

/** Runs in its own transaction, scoped to the event's company, at least once. */
export type EventHandler<N extends EventName> = (tx: RequestContext, event: DomainEvent<N>) => Promise<void>;

export type Subscriptions = { [N in EventName]?: EventHandler<N> };

/** A background job a subgraph runs: on a schedule (`cron`, UTC) and/or when sent with `tx.runAt`. */
export interface JobDefinition {
  /** Context scoped to `data.companyId` when the job names one, else cross-tenant (the handler opts out of the filter). */
  handler: (ctx: RequestContext, data: Record<string, unknown>) => Promise<void>;
  cron?: string;
}
