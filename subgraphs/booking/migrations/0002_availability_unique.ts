import type { Migration } from '../../kernel/module.ts';

/** One rule per owner and weekday, and per owner and date: concurrent edits cannot leave two. */
export const booking0002: Migration = {
  name: '0002_availability_unique',
  statements: [
    'create unique index availability_rule_weekday_uniq on booking.availability_rule (owner_id, day_of_week) where date is null',
    'create unique index availability_rule_date_uniq on booking.availability_rule (owner_id, date) where date is not null',
  ],
};
