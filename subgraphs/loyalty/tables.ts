import type { Table } from '../kernel/tables.ts';
import type { LoyaltyAccount } from './entities/account.ts';
import type { LoyaltyCustomer } from './entities/customer-projection.ts';
import type { GiftClaim, GiftOffer, Redemption } from './entities/gift.ts';
import type { LedgerEntry } from './entities/ledger-entry.ts';
import type { LoyaltyRules } from './entities/rules.ts';
import type { MembershipTier } from './entities/tier.ts';

/** The loyalty subgraph's tables, for `ctx.query` (kernel/tables.ts). */
declare module '../kernel/tables.ts' {
  interface Tables {
    'loyalty.account': Table<typeof LoyaltyAccount>;
    'loyalty.customer_projection': Table<typeof LoyaltyCustomer>;
    'loyalty.gift_offer': Table<typeof GiftOffer>;
    'loyalty.redemption': Table<typeof Redemption>;
    'loyalty.gift_claim': Table<typeof GiftClaim>;
    'loyalty.ledger_entry': Table<typeof LedgerEntry>;
    'loyalty.rules': Table<typeof LoyaltyRules>;
    'loyalty.membership_tier': Table<typeof MembershipTier>;
  }
}
