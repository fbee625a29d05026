/**
 * The domain events loyalty publishes, declared as ../members/events.ts does (a consumer imports
 * the payload type, never loyalty's entities).
 */

/** Earned points took a customer into another membership tier (campaigns segments by tier). */
export interface TierChanged {
  customerId: string;
  tierId: string | null;
  tierName: string | null;
  lifetimePoints: number;
}

declare module '../kernel/events.ts' {
  interface DomainEvents {
    'loyalty.tier.changed': TierChanged;
  }
}
