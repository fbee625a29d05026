import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { loyaltyConstraints } from './constraints.ts';
import { LoyaltyAccount } from './entities/account.ts';
import { GiftClaim, GiftOffer, Redemption } from './entities/gift.ts';
import { LoyaltyCustomer } from './entities/customer-projection.ts';
import { LedgerEntry } from './entities/ledger-entry.ts';
import { LoyaltyRules } from './entities/rules.ts';
import { MembershipTier } from './entities/tier.ts';
import { loyaltyJobs } from './jobs.ts';
import { loyalty0001 } from './migrations/0001_loyalty.ts';
import { loyalty0002 } from './migrations/0002_gifts.ts';
import { loyaltyReferences } from './references.ts';
import { CustomerLoyaltyResolver, LoyaltyResolver } from './resolvers/loyalty.resolver.ts';
import { GiftResolver } from './resolvers/gift.resolver.ts';
import { CustomerRef } from './resolvers/loyalty.types.ts';
import { customers } from './services/customers.ts';
import { loyaltySubscriptions } from './subscriptions.ts';

/** Points (an append-only ledger with expiring lots), earn rules, membership tiers, gift offers, redemptions and claims. */
export const loyalty: SubgraphModule = {
  name: 'loyalty',
  schema: 'loyalty',
  entities: [LoyaltyRules, MembershipTier, LoyaltyAccount, LedgerEntry, LoyaltyCustomer, GiftOffer, Redemption, GiftClaim],
  migrations: [loyalty0001, loyalty0002],
  constraints: loyaltyConstraints,
  buildSchema: () =>
    buildFederatedSchema({
      name: 'loyalty',
      resolvers: [LoyaltyResolver, GiftResolver, CustomerLoyaltyResolver],
      orphanedTypes: [CustomerRef],
      references: loyaltyReferences,
    }),
  subscriptions: loyaltySubscriptions,
  jobs: loyaltyJobs,
  // Customers that existed before loyalty kept its projection (later ones arrive as events).
  async onStart(runtime) {
    await customers.backfill(runtime);
  },
};
