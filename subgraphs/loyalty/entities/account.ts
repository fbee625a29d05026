import { p } from '@mikro-orm/core';
import { companyIdColumn, tenantEntity } from '../../kernel/tenancy.ts';

/**
 * A customer's points: the cached sum of their ledger (balance) and everything they ever earned
 * (lifetime, which gives the tier), changed in the same transaction as each ledger entry. The
 * balance never goes below zero: a check, and the conditional update every debit makes.
 */
export const LoyaltyAccount = tenantEntity({
  name: 'LoyaltyAccount',
  schema: 'loyalty',
  tableName: 'account',
  properties: {
    companyId: companyIdColumn().primary(),
    customerId: p.uuid().primary(),
    balance: p.integer(),
    lifetimeEarned: p.integer(),
    updatedAt: p.datetime(),
  },
  checks: [
    { name: 'account_balance_check', expression: 'balance >= 0' },
    { name: 'account_lifetime_earned_check', expression: 'lifetime_earned >= 0' },
  ],
});
export type LoyaltyAccount = InstanceType<typeof LoyaltyAccount.class>;
