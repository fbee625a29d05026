import type { ConstraintTable } from '../kernel/constraints.ts';

/** What loyalty's constraints mean to a client (names as in migrations/). */
export const loyaltyConstraints: ConstraintTable = {
  membership_tier_name_uniq: { code: 'CONFLICT', field: 'name', message: 'A tier with this name exists' },
  membership_tier_threshold_uniq: { code: 'CONFLICT', field: 'threshold', message: 'A tier with this threshold exists' },
  // A debit never takes a balance below zero: the conditional update answers first, this is the last word.
  redemption_code_uniq: { code: 'CONFLICT', message: 'A redemption code clashed, try again' },
  gift_offer_stock_check: { code: 'CONFLICT', field: 'quantity', message: 'Out of stock' },
  account_balance_check: { code: 'CONFLICT', field: 'points', message: 'Not enough points' },
};
