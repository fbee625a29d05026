import { p } from '@mikro-orm/core';
import { newId } from '../../kernel/ids.ts';
import { tenantEntity } from '../../kernel/tenancy.ts';

/** What a rule segment asks of a customer (every rule given must hold). Dates are ISO-8601 strings. */
export interface SegmentRules {
  tierId?: string;
  bookedSince?: string;
  notBookedSince?: string;
  /** Major units, as a decimal string. */
  minTotalSpent?: string;
  minOrders?: number;
  tag?: string;
  createdSince?: string;
  reachableBy?: 'email' | 'sms' | 'whatsapp';
}

/**
 * An audience: a static list of customers, or rules evaluated against the audience projection
 * when a campaign starts sending (never frozen at creation).
 */
export const Segment = tenantEntity({
  name: 'Segment',
  schema: 'campaigns',
  tableName: 'segment',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => newId()),
    name: p.text(),
    customerIds: p.array().columnType('uuid[]').nullable(),
    rules: p.json<SegmentRules>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ name: 'segment_name_uniq', expression: 'create unique index segment_name_uniq on campaigns.segment (company_id, lower(name))' }],
  checks: [{ name: 'segment_kind_check', expression: '(customer_ids is null) <> (rules is null)' }],
});
export type Segment = InstanceType<typeof Segment.class>;
