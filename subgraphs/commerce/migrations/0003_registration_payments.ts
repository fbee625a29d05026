import type { Migration } from '../../kernel/module.ts';

/** Paid event registrations: commerce's record of what each owes (from content's events) and until when. */
export const commerce0003: Migration = {
  name: '0003_registration_payments',
  statements: [
    `create table commerce.payable_registration (
      company_id uuid not null,
      registration_id uuid not null,
      event_id uuid not null,
      event_title text not null,
      customer_id uuid,
      email text,
      amount_minor bigint not null,
      currency char(3) not null,
      status text not null,
      created_at timestamptz not null,
      payment_due_at timestamptz not null,
      primary key (company_id, registration_id),
      constraint payable_registration_amount_minor_check check (amount_minor >= 0),
      constraint payable_registration_status_check check (status in ('PENDING_PAYMENT', 'PAID', 'EXPIRED', 'CONFIRMED'))
    )`,
  ],
};
