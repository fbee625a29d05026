import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

export const LEDGER_TYPES = ['EARN', 'REDEEM', 'EXPIRE', 'ADJUST', 'REVERSAL'] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];
export const LEDGER_SOURCES = ['order', 'booking', 'redemption', 'merchant', 'expiry'] as const;
export type LedgerSource = (typeof LEDGER_SOURCES)[number];

/**
 * One change of a customer's points, never updated but for `remaining`: a credit is a lot
 * (`remaining` points left, `expiresAt`) that debits consume oldest first and expiry ends. The
 * idempotency key is unique per company, so a redelivered event never earns twice.
 */
export const LedgerEntry = tenantEntity({
  name: 'LedgerEntry',
  schema: 'loyalty',
  tableName: 'ledger_entry',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    customerId: p.uuid(),
    type: p.text().$type<LedgerType>(),
    /** Signed: credits positive, debits negative. */
    points: p.integer(),
    balanceAfter: p.integer(),
    reason: p.text(),
    sourceType: p.text().$type<LedgerSource>(),
    sourceId: p.text().nullable(),
    idempotencyKey: p.text(),
    /** Credits: points of this lot not yet spent or expired. Null for debits. */
    remaining: p.integer().nullable(),
    expiresAt: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
  uniques: [{ name: 'ledger_entry_key_uniq', properties: ['companyId', 'idempotencyKey'] }],
  indexes: [
    { name: 'ledger_entry_customer_idx', properties: ['companyId', 'customerId', 'createdAt'] },
    {
      name: 'ledger_entry_lot_idx',
      expression: 'create index ledger_entry_lot_idx on loyalty.ledger_entry (company_id, customer_id, expires_at) where remaining > 0',
    },
    { name: 'ledger_entry_expiry_idx', expression: 'create index ledger_entry_expiry_idx on loyalty.ledger_entry (expires_at) where remaining > 0' },
  ],
  checks: [
    { name: 'ledger_entry_type_check', expression: `type in (${LEDGER_TYPES.map((t) => `'${t}'`).join(', ')})` },
    { name: 'ledger_entry_source_type_check', expression: `source_type in (${LEDGER_SOURCES.map((t) => `'${t}'`).join(', ')})` },
    { name: 'ledger_entry_points_check', expression: 'points <> 0' },
    { name: 'ledger_entry_balance_after_check', expression: 'balance_after >= 0' },
    { name: 'ledger_entry_remaining_check', expression: 'remaining >= 0 and remaining <= points' },
  ],
});
export type LedgerEntry = InstanceType<typeof LedgerEntry.class>;
