/** The segment and tag tools' inputs, checked and normalised before the services see them. */
import { z } from 'zod';
import { amount, id, oneOf, text } from '../../kernel/schemas.ts';
import { CAMPAIGN_CHANNELS } from '../entities/campaign.ts';
import type { SegmentRules } from '../entities/segment.ts';
import type { TagChanges } from '../services/audience.ts';
import type { SegmentChanges } from '../services/segments.ts';

export const SegmentId = id('segment');

const lowerCase = (v: string) => v.toLowerCase();

/** Customer ids in lower case, each once. */
const customerIds = (max: number) =>
  z
    .array(id('customer').transform(lowerCase))
    .min(1, `must list 1 to ${max} customer ids`)
    .max(max, `must list 1 to ${max} customer ids`)
    .transform((ids) => [...new Set(ids)]);

/** Tags are kept trimmed and lower-cased: "VIP " is vip. */
const tag = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .refine((v) => /^[a-z0-9][a-z0-9 _-]{0,39}$/.test(v), 'must be 1 to 40 letters, digits, spaces, - or _, starting with a letter or digit');

/** Rule dates are stored as ISO-8601 strings. */
const since = z.date().transform((d) => d.toISOString());
const between = 'must be between 1 and 100000';

/** The rules given: a null rule is no rule, as an absent one. */
const Rules = z
  .object({
    tierId: id('membership tier').transform(lowerCase).nullish(),
    bookedSince: since.nullish(),
    notBookedSince: since.nullish(),
    minTotalSpent: amount()
      .refine((v) => /^\d{1,12}(\.\d{1,3})?$/.test(v), 'must be an amount in major units, such as "100" or "99.50"')
      .nullish(),
    minOrders: z.int(between).min(1, between).max(100_000, between).nullish(),
    tag: tag.nullish(),
    createdSince: since.nullish(),
    reachableBy: oneOf(CAMPAIGN_CHANNELS).nullish(),
  })
  .transform((rules) => Object.fromEntries(Object.entries(rules).filter(([, v]) => v != null)) as SegmentRules);

export const NewSegment = z.object({
  name: text(100),
  customerIds: customerIds(10_000).nullish(),
  rules: Rules.nullish(),
}) satisfies z.ZodType<SegmentChanges>;

/** Changes: a null name leaves the name as it is. */
export const SegmentUpdate = NewSegment.extend({ name: text(100).nullish() }) satisfies z.ZodType<SegmentChanges>;

export const TagChangesInput = z.object({
  customerIds: customerIds(1000),
  add: z
    .array(tag)
    .nullish()
    .transform((tags) => tags ?? []),
  remove: z
    .array(tag)
    .nullish()
    .transform((tags) => tags ?? []),
}) satisfies z.ZodType<TagChanges>;
