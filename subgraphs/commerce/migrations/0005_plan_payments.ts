import type { Migration } from '../../kernel/module.ts';

/** A payment may also buy a month of a plan for the company itself (services/plan-checkout.ts). */
export const commerce0005: Migration = {
  name: '0005_plan_payments',
  statements: [
    'alter table commerce.payment add column plan_id text',
    'alter table commerce.payment drop constraint payment_purpose_check',
    'alter table commerce.payment add constraint payment_purpose_check check (num_nonnulls(order_id, registration_id, plan_id) = 1)',
  ],
};
