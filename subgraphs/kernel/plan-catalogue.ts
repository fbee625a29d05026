import { z } from 'zod';

/**
 * The plans a company can be on, as data: what each costs, the features it includes and the
 * limits it sets. The names are entitlement keys a billing provider can map onto later. The
 * defaults are below; an operator changes any of them with PLANS (JSON, merged over these by plan
 * id), and every start stores the result in kernel.plan (kernel/plans.ts), where the router and
 * the subgraphs read it. docs/api/plans.md shows the table.
 */

/** What a plan may include besides its limits. */
export const FEATURES = ['sms', 'whatsapp', 'approvals', 'reports'] as const;
export type Feature = (typeof FEATURES)[number];

export interface PlanLimits {
  /** Merchant and agent operations per minute, per API key or dashboard session. */
  requestsPerMinute: number;
  /** Merchant and agent operations per period (a month), per company. */
  apiCallsPerMonth: number;
  /** Campaign messages per period and channel. */
  emailMessagesPerMonth: number;
  smsMessagesPerMonth: number;
  whatsappMessagesPerMonth: number;
  /** Active staff members at any time. */
  staffMembers: number;
}
export type LimitName = keyof PlanLimits;

/** What is counted per company and period, each against its limit. */
export const METERS = {
  apiCalls: 'apiCallsPerMonth',
  emailMessages: 'emailMessagesPerMonth',
  smsMessages: 'smsMessagesPerMonth',
  whatsappMessages: 'whatsappMessagesPerMonth',
} as const satisfies Record<string, LimitName>;
export type Meter = keyof typeof METERS;

export interface PlanDefinition {
  id: string;
  name: string;
  /** The price per period (a month), in minor units. */
  price: { amountMinor: number; currency: string };
  features: Feature[];
  limits: PlanLimits;
}

export const DEFAULT_PLANS: PlanDefinition[] = [
  {
    id: 'free',
    name: 'Free',
    price: { amountMinor: 0, currency: 'USD' },
    features: [],
    limits: {
      requestsPerMinute: 300,
      apiCallsPerMonth: 50_000,
      emailMessagesPerMonth: 2_000,
      smsMessagesPerMonth: 0,
      whatsappMessagesPerMonth: 0,
      staffMembers: 5,
    },
  },
  {
    id: 'starter',
    name: 'Starter',
    price: { amountMinor: 4900, currency: 'USD' },
    features: ['sms', 'whatsapp', 'approvals', 'reports'],
    limits: {
      requestsPerMinute: 1_200,
      apiCallsPerMonth: 1_000_000,
      emailMessagesPerMonth: 20_000,
      smsMessagesPerMonth: 1_000,
      whatsappMessagesPerMonth: 2_000,
      staffMembers: 25,
    },
  },
];

/** The plan every company is on until it buys another. */
export const FREE_PLAN = 'free';

const count = z.number().int().min(0);
const override = z
  .object({
    name: z.string().min(1).optional(),
    price: z.object({ amountMinor: count, currency: z.string().regex(/^[A-Z]{3}$/) }).optional(),
    features: z.array(z.enum(FEATURES)).optional(),
    limits: z
      .object({
        requestsPerMinute: z.number().int().min(1),
        apiCallsPerMonth: count,
        emailMessagesPerMonth: count,
        smsMessagesPerMonth: count,
        whatsappMessagesPerMonth: count,
        staffMembers: count,
      })
      .partial()
      .strict()
      .optional(),
  })
  .strict();

/**
 * The plans with PLANS applied: `{"free": {"limits": {"requestsPerMinute": 600}}}` changes that
 * limit and keeps the rest; a plan id that is not a default adds a plan (then it names all of its
 * fields). The order is the upgrade path: a refusal names the first later plan that lifts it.
 */
export function loadPlans(value: string | undefined): PlanDefinition[] {
  if (!value) return DEFAULT_PLANS;
  let given: unknown;
  try {
    given = JSON.parse(value);
  } catch {
    throw new Error('PLANS must be JSON: {"<plan id>": {"limits": {"requestsPerMinute": 600}}}');
  }
  const parsed = z.record(z.string().regex(/^[a-z][a-z0-9_-]*$/), override).safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`PLANS: ${issue.path.join('.')}: ${issue.message}`);
  }
  const plans = DEFAULT_PLANS.map((plan) => structuredClone(plan));
  for (const [id, change] of Object.entries(parsed.data)) {
    const plan = plans.find((p) => p.id === id);
    if (plan) {
      Object.assign(plan, { ...change, limits: { ...plan.limits, ...change.limits } });
      continue;
    }
    const complete = { id, ...change } as Partial<PlanDefinition>;
    const limits = complete.limits as Partial<PlanLimits> | undefined;
    if (!complete.name || !complete.price || !complete.features || !limits || Object.keys(limits).length < Object.keys(plans[0].limits).length)
      throw new Error(`PLANS: ${id}: a new plan names its name, price, features and every limit`);
    plans.push(complete as PlanDefinition);
  }
  return plans;
}

/** The first plan after `current` in the upgrade path that has `feature` or a higher `limit`. */
export function planThatLifts(
  plans: readonly PlanDefinition[],
  current: string,
  what: { feature: Feature } | { limit: LimitName },
): PlanDefinition | undefined {
  const from = plans.findIndex((p) => p.id === current);
  const base = plans[from];
  return plans.slice(from + 1).find((p) => ('feature' in what ? p.features.includes(what.feature) : !base || p.limits[what.limit] > base.limits[what.limit]));
}
