import type { Migration } from '../../kernel/module.ts';

/** A booking made with a promotion code records the code and its discount (amount due = price − discount). */
export const booking0003: Migration = {
  name: '0003_promotions',
  statements: [
    'alter table booking.booking add column promotion_code text',
    // Existing bookings had no discount; new ones always state theirs.
    'alter table booking.booking add column discount_minor bigint not null default 0',
    'alter table booking.booking alter column discount_minor drop default',
    'alter table booking.booking add constraint booking_discount_minor_check check (discount_minor >= 0)',
  ],
};
