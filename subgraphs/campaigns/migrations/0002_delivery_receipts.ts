import type { Migration } from '../../kernel/module.ts';

/** Deliveries learn what the provider's receipts say (through messaging's status events): delivered and read. */
export const campaigns0002: Migration = {
  name: '0002_delivery_receipts',
  statements: [`alter table campaigns.delivery add column delivered_at timestamptz, add column read_at timestamptz`],
};
