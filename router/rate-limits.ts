import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { GraphQLError } from 'graphql';
import { CompiledQuery, sql } from 'kysely';
import type { AppError } from '../subgraphs/kernel/errors.ts';
import { companyPlanQuery, planLimitReached, toCurrentPlan, type CompanyPlanRow } from '../subgraphs/kernel/plans.ts';
import { headerReader, resolvePrincipal, type Principal } from '../subgraphs/kernel/principal.ts';
import { scopedQuery, systemQuery } from '../subgraphs/kernel/query.ts';
import type { Runtime } from '../subgraphs/kernel/runtime.ts';
import { edgeRequest } from './edge.ts';

/**
 * Rate limits and the API-call meter, as one plugin of the gateway's pipeline: every operation of
 * every interface (GraphQL, REST, MCP, the SDK) is counted here once, before it runs.
 *
 * - A merchant or agent (an API key or a dashboard session) has its plan's requests per minute per
 *   credential, and each operation counts against its company's API calls for the period.
 * - A storefront caller (anonymous, a storefront's visitor, a signed-in customer) has a generous
 *   rate per client address and company (STOREFRONT_REQUESTS_PER_MINUTE), and is not metered.
 *
 * The counters are rows of kernel.rate_window (fixed one-minute windows) and kernel.usage, moved
 * by one statement per operation whose conditional upserts are exact under concurrency, in every
 * process that shares the database. The answer carries the IETF RateLimit-Policy and RateLimit
 * header fields; over the rate it is 429 RATE_LIMITED with Retry-After, over the quota 402
 * PLAN_LIMIT_REACHED.
 */
export function useRateLimits(runtime: Runtime): GatewayPlugin {
  let count: ReturnType<typeof counter> | undefined;
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const request = (args.contextValue as { request?: Request }).request;
      if (!request) return;
      const edge = edgeRequest.getStore();
      const outcome = await (count ??= counter(runtime))(request.headers, edge?.address ?? 'local');
      if (edge && !edge.res.headersSent) {
        edge.res.setHeader('ratelimit-policy', outcome.policy);
        edge.res.setHeader('ratelimit', outcome.remaining);
        if (outcome.refusal?.extensions.code === 'RATE_LIMITED') edge.res.setHeader('retry-after', String(outcome.refusal.extensions.retryAfterSeconds));
      }
      if (outcome.refusal) setResultAndStopExecution({ errors: [outcome.refusal] });
    },
  };
}

interface Outcome {
  /** RateLimit-Policy and RateLimit, as structured field values. */
  policy: string;
  remaining: string;
  refusal?: GraphQLError;
}

const MINUTE_MS = 60_000;

/** What the statements are built with, replaced by each call's values when it runs. */
const SLOTS = { company: '00000000-0000-4000-8000-00000000c0de', key: '\u0000key', window: '\u0000window', now: '\u0000now', max: -987_654_321 };
type Values = { [K in keyof typeof SLOTS]?: unknown };

/**
 * A statement built once with the builder (its tables named through it, the tenancy plugin
 * applied) and run with each call's values in its parameters: building and compiling the
 * statements on every request cost the router more CPU than the round trip itself.
 */
function prepared(compiled: CompiledQuery): (values: Values) => CompiledQuery {
  const slots = compiled.parameters.map((p) => (Object.keys(SLOTS) as (keyof typeof SLOTS)[]).find((k) => SLOTS[k] === p));
  return (values) =>
    CompiledQuery.raw(
      compiled.sql,
      compiled.parameters.map((p, i) => (slots[i] ? values[slots[i]] : p)),
    );
}

/** The storefront's minute: one conditional upsert of its window. */
function storefrontStatement(runtime: Runtime) {
  return prepared(
    systemQuery(runtime.db.orm.em)
      .insertInto('kernel.rate_window')
      .values({ key: SLOTS.key, windowStart: sql<Date>`${SLOTS.window}::timestamptz`, count: 1 })
      .onConflict((oc) =>
        oc
          .columns(['key', 'windowStart'])
          .doUpdateSet((eb) => ({ count: eb('kernel.rate_window.count', '+', 1) }))
          .where('kernel.rate_window.count', '<', SLOTS.max),
      )
      .returning('count')
      .compile(),
  );
}

/**
 * A merchant operation: the company's plan and period, the credential's minute (only within the
 * plan's rate) and, only if that counted, the company's API calls for the period (only within
 * its quota). One statement; the row locks of the upserts make it exact under concurrency.
 */
function merchantStatement(runtime: Runtime) {
  const limit = (name: 'requestsPerMinute' | 'apiCallsPerMonth') => sql<number>`(plan.limits->>${name})::bigint`;
  return prepared(
    scopedQuery(runtime.db.orm.em, SLOTS.company)
      .query.with('plan', (q) => companyPlanQuery(q, SLOTS.now))
      .with('minute', (q) =>
        q
          .insertInto('kernel.rate_window')
          .columns(['key', 'windowStart', 'count'])
          .expression((eb) =>
            eb.selectFrom('plan').select([eb.val(SLOTS.key).as('key'), sql<Date>`${SLOTS.window}::timestamptz`.as('windowStart'), eb.lit(1).as('count')]),
          )
          .onConflict((oc) =>
            oc
              .columns(['key', 'windowStart'])
              .doUpdateSet((eb) => ({ count: eb('kernel.rate_window.count', '+', 1) }))
              .where((eb) => eb('kernel.rate_window.count', '<', eb.selectFrom('plan').select(limit('requestsPerMinute').as('max')))),
          )
          .returning('count'),
      )
      .with('month', (q) =>
        q
          .insertInto('kernel.usage')
          .columns(['companyId', 'meter', 'periodStart', 'used'])
          .expression((eb) =>
            eb
              .selectFrom('plan')
              .select([
                eb.cast<string>(eb.val(SLOTS.company), 'uuid').as('companyId'),
                eb.val('apiCalls').as('meter'),
                'plan.periodStart',
                eb.lit(1).as('used'),
              ])
              .where((w) => w.exists(w.selectFrom('minute').select('count')))
              .where(limit('apiCallsPerMonth'), '>', 0),
          )
          .onConflict((oc) =>
            oc
              .columns(['companyId', 'meter', 'periodStart'])
              .doUpdateSet((eb) => ({ used: eb('kernel.usage.used', '+', 1) }))
              .where((eb) => eb('kernel.usage.used', '<', eb.selectFrom('plan').select(limit('apiCallsPerMonth').as('max')))),
          )
          .returning('used'),
      )
      .selectFrom('plan')
      .selectAll('plan')
      .select((eb) => [eb.selectFrom('minute').select('count').as('minute'), eb.selectFrom('month').select('used').as('month')])
      .compile(),
  );
}

type MerchantRow = CompanyPlanRow & { minute: number | null; month: number | null };

function counter(runtime: Runtime) {
  const storefront = storefrontStatement(runtime);
  const merchant = merchantStatement(runtime);
  const run = <R>(statement: CompiledQuery) => systemQuery(runtime.db.orm.em).executeQuery<R>(statement);

  return async function count(headers: Headers, address: string): Promise<Outcome> {
    let principal: Principal | undefined;
    try {
      principal = await resolvePrincipal(runtime.db, runtime.config.jwtSecret, headerReader(headers));
    } catch {
      // A credential that does not resolve is refused by the subgraph; its caller is counted by address.
    }
    const now = runtime.clock.now();
    const windowStart = new Date(Math.floor(now / MINUTE_MS) * MINUTE_MS);
    const resetSeconds = Math.ceil((windowStart.getTime() + MINUTE_MS - now) / 1000);
    const window = windowStart.toISOString();
    if (principal?.kind !== 'merchant') {
      const max = runtime.config.storefrontRequestsPerMinute;
      const key = `client:${principal?.companyId ?? '-'}:${address}`;
      const { rows } = await run<{ count: number }>(storefront({ key, window, max }));
      const used = rows.length ? Number(rows[0].count) : max;
      return {
        policy: `"storefront";q=${max};w=60`,
        remaining: `"storefront";r=${max - used};t=${resetSeconds}`,
        refusal: rows.length ? undefined : rateLimited(`More than ${max} storefront requests a minute from this address`, resetSeconds),
      };
    }
    const { rows } = await run<MerchantRow>(
      merchant({ company: principal.companyId, key: `key:${principal.credentialId}`, window, now: new Date(now).toISOString() }),
    );
    return merchantOutcome(runtime, rows[0], now, resetSeconds);
  };
}

function merchantOutcome(runtime: Runtime, row: MerchantRow, now: number, resetSeconds: number): Outcome {
  const plan = toCurrentPlan(row);
  const perMinute = plan.limits.requestsPerMinute;
  const perMonth = plan.limits.apiCallsPerMonth;
  const periodSeconds = Math.round((plan.periodEnd.getTime() - plan.periodStart.getTime()) / 1000);
  const periodLeft = Math.max(1, Math.ceil((plan.periodEnd.getTime() - now) / 1000));
  const minuteUsed = row.minute === null ? perMinute : Number(row.minute);
  // Refused by the rate, the period was not counted and its count is not known here: RateLimit leaves it out.
  const monthUsed = row.month === null ? (row.minute === null ? null : perMonth) : Number(row.month);
  const outcome: Outcome = {
    policy: `"minute";q=${perMinute};w=60, "month";q=${perMonth};w=${periodSeconds}`,
    remaining: `"minute";r=${perMinute - minuteUsed};t=${resetSeconds}${monthUsed === null ? '' : `, "month";r=${perMonth - monthUsed};t=${periodLeft}`}`,
  };
  if (row.minute === null)
    outcome.refusal = rateLimited(`More than ${perMinute} requests a minute with this credential (the ${plan.planId} plan's rate)`, resetSeconds);
  else if (row.month === null)
    outcome.refusal = asGraphqlError(
      planLimitReached(
        runtime.config.plans,
        plan.planId,
        { limit: 'apiCallsPerMonth', max: perMonth },
        `The ${plan.planId} plan's ${perMonth} API calls for this period are used up (the period ends ${plan.periodEnd.toISOString()})`,
      ),
      402,
    );
  return outcome;
}

function rateLimited(message: string, retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(`${message}; try again in ${retryAfterSeconds} seconds`, {
    extensions: { code: 'RATE_LIMITED', retryAfterSeconds, http: { status: 429 } },
  });
}

/** The refusal as the gateway answers it over HTTP: with its catalogue status (a subgraph's error gets it from the REST or MCP facade). */
function asGraphqlError(error: AppError, status: number): GraphQLError {
  return new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status } } });
}
