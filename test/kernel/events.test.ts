import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Platform } from '../../router/platform.ts';
import { CLOCK_OVERRIDE_SETTING, TestClock } from '../../subgraphs/kernel/clock.ts';
import { RequestContext } from '../../subgraphs/kernel/context.ts';
import type { DomainEvent } from '../../subgraphs/kernel/events.ts';
import { newId } from '../../subgraphs/kernel/ids.ts';
import { subscriberQueue } from '../../subgraphs/kernel/jobs/queues.ts';
import { Jobs } from '../../subgraphs/kernel/jobs/index.ts';
import { listDeadJobs, retryDeadJob } from '../../subgraphs/kernel/jobs/ops.ts';
import type { CustomerFacts } from '../../subgraphs/members/events.ts';
import { eventually } from '../support/eventually.ts';
import { probeModule, probePlatform } from '../support/probe-platform.ts';

const facts = (name: string): CustomerFacts => ({ customerId: newId(), name, lastName: null, email: null, phone: null, emailVerified: false, phoneVerified: false });

/** What the probe's handlers saw: event id → how many times, and when (test-clock time) each failing attempt came. */
const handled = new Map<string, number>();
const failingAttempts: number[] = [];
const reminders: { at: number; data: Record<string, unknown> }[] = [];
const ticks: number[] = [];

let clock: TestClock;
let platform: Platform;
const schema = `pgboss_events_${process.pid}`;

const probe = () =>
  probeModule('probe', {
    subscriptions: {
      'members.customer.created': async (tx, event) => {
        handled.set(event.id, (handled.get(event.id) ?? 0) + 1);
        // Writes in the handler's transaction, scoped to the event's company.
        expect(tx.inTransaction).toBe(true);
        expect(tx.companyId).toBe(event.companyId);
      },
      'members.customer.updated': async (tx) => {
        failingAttempts.push(tx.now().getTime());
        throw new Error('the handler is broken');
      },
    },
    jobs: {
      'probe.reminder': { handler: async (ctx, data) => void reminders.push({ at: ctx.now().getTime(), data }) },
      'probe.quarter-hourly': { cron: '*/15 * * * *', handler: async (ctx) => void ticks.push(ctx.now().getTime()) },
    },
  });

async function publish(name: 'members.customer.created' | 'members.customer.updated', payload: CustomerFacts, fail = false) {
  const ctx = RequestContext.system(platform.runtime, newId());
  let id = '';
  await ctx
    .transaction(async (tx) => {
      tx.publish(name, payload);
      id = (tx as any).tx.jobs.at(-1).event.id;
      if (fail) throw new Error('rolled back');
    })
    .catch((e) => {
      if (!fail) throw e;
    });
  return id;
}

/**
 * Moves the test clock in steps until `done` holds (bounded): the workers poll at each step, and
 * a handler that ran on one step is seen on a later one.
 */
async function advanceUntil(done: () => boolean | Promise<boolean>, maxSeconds: number, step = 1) {
  for (let t = 0; t <= maxSeconds; t += step) {
    if (await done()) return;
    await clock.tick(step * 1000);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Advances the test clock in steps, letting the workers poll (and handlers run) at each. */
async function advance(seconds: number, step = 1) {
  for (let t = 0; t < seconds; t += step) {
    await clock.tick(step * 1000);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Another Jobs working a module's queues, as another start of the process makes one; it delivers no messages. */
const jobsFor = (module: ReturnType<typeof probeModule>) => Jobs.start(platform.runtime, { consume: [module], deliverMessages: false, clock, schema, sessionSettings: { [CLOCK_OVERRIDE_SETTING]: 'on' } });

beforeAll(async () => {
  clock = new TestClock(Date.now());
  platform = await probePlatform([probe()], { clock, jobsSchema: schema });
});

afterAll(async () => {
  await platform?.stop();
});

describe('domain events on the queue', () => {
  it('delivers an event published in a committed transaction, once; never one from a rolled-back transaction', async () => {
    const committed = await publish('members.customer.created', facts('Ann'));
    const rolledBack = await publish('members.customer.created', facts('Bob'), true);
    await advanceUntil(() => handled.get(committed) === 1, 30);
    expect(handled.get(committed)).toBe(1);
    await advance(5);
    expect(handled.get(committed)).toBe(1);
    expect(handled.has(rolledBack)).toBe(false);
    const { rows } = await platform.runtime.jobs.boss.getDb().executeSql(`select count(*)::int as n from ${schema}.job where data->>'id' = $1`, [rolledBack]);
    expect(rows[0].n).toBe(0);
  });

  it('skips a duplicate delivery of an event it already handled', async () => {
    const id = await publish('members.customer.created', facts('Cid'));
    await advanceUntil(() => handled.get(id) === 1, 30);
    expect(handled.get(id)).toBe(1);
    // The queue delivers at least once: the same event again (as after a lost acknowledgement).
    const [job] = await platform.runtime.jobs.boss.findJobs(subscriberQueue('probe', 'members.customer.created'), { data: { id } });
    await platform.runtime.jobs.boss.send(subscriberQueue('probe', 'members.customer.created'), job.data as DomainEvent);
    const completed = async () =>
      (await platform.runtime.jobs.boss.getDb().executeSql(`select count(*)::int as n from ${schema}.job where data->>'id' = $1 and state = 'completed'`, [id])).rows[0].n;
    await advanceUntil(async () => (await completed()) === 2, 30);
    expect(await completed()).toBe(2);
    expect(handled.get(id)).toBe(1);
  });

  it('retries a failing handler with growing delays, then leaves it dead for an operator to list and retry', async () => {
    failingAttempts.length = 0;
    const id = await publish('members.customer.updated', facts('Dee'));
    // 1 try + 5 retries with exponential backoff (2 s doubling, jittered) fit in ten minutes.
    await advanceUntil(() => failingAttempts.length >= 6, 900, 5);
    expect(failingAttempts.length).toBe(6);
    const gaps = failingAttempts.slice(1).map((t, i) => t - failingAttempts[i]);
    expect(gaps[gaps.length - 1]).toBeGreaterThan(gaps[0]);
    const deadOnes = async () => (await listDeadJobs(platform.runtime)).filter((j) => (j.data as DomainEvent).id === id);
    await advanceUntil(async () => (await deadOnes()).length === 1, 60, 5);
    const [dead] = await deadOnes();
    expect(dead).toBeDefined();
    expect(dead.queue).toBe(subscriberQueue('probe', 'members.customer.updated'));
    expect(dead.error).toContain('the handler is broken');
    // An operator retries it: it runs again (and fails again here).
    expect(await retryDeadJob(platform.runtime, dead.queue, dead.id)).toBe(true);
    await advanceUntil(() => failingAttempts.length >= 7, 120, 5);
    expect(failingAttempts.length).toBe(7);
  });

  it('runs a job sent with runAt at its time, not before', async () => {
    const at = new Date(clock.now() + 3600_000);
    const ctx = RequestContext.system(platform.runtime, null);
    await ctx.transaction(async (tx) => tx.runAt('probe.reminder', at, { note: 'one hour later' }));
    // A jump to a minute before, where the worker polls and finds nothing due; then past it.
    await clock.setTime(at.getTime() - 60_000);
    await advance(30, 5);
    expect(reminders).toHaveLength(0);
    await advanceUntil(() => reminders.length === 1, 120, 5);
    expect(reminders).toHaveLength(1);
    expect(reminders[0].at).toBeGreaterThanOrEqual(at.getTime());
    expect(reminders[0].data).toEqual({ note: 'one hour later' });
  });
});

describe('scheduled jobs', () => {
  it('run on their cron schedule as the clock moves', async () => {
    // Earlier tests moved the clock too (the schedule ran then); count from here.
    ticks.length = 0;
    const start = clock.now();
    await advanceUntil(() => ticks.length >= 2, 3600, 60);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    // Each run comes at (or just after) a quarter hour of the test clock, never before.
    for (const at of ticks) expect(at).toBeGreaterThanOrEqual(start);
    expect(new Set(ticks.map((t) => Math.floor(t / 900_000))).size).toBe(ticks.length);
    // Up to 60 steps of the clock, each waiting for the queue's supervisor: slow on a loaded machine.
  }, 120_000);
});

describe.runIf(inject('databaseUrl'))('two processes of one subgraph', () => {
  it('handle each event once between them', async () => {
    const seen = new Map<string, string[]>();
    const replica = (label: string) =>
      probeModule('replica', {
        subscriptions: {
          'members.customer.created': async (_tx, event) => void seen.set(event.id, [...(seen.get(event.id) ?? []), label]),
        },
      });
    const replicaSchema = `pgboss_replicas_${process.pid}`;
    const a = await probePlatform([replica('a')], { jobsSchema: replicaSchema });
    const b = await probePlatform([replica('b')], { jobsSchema: replicaSchema });
    try {
      const ctx = RequestContext.system(a.runtime, newId());
      for (let i = 0; i < 20; i++) await ctx.transaction(async (tx) => tx.publish('members.customer.created', facts(`R${i}`)));
      await eventually(() => expect(seen.size).toBe(20), { tries: 400, intervalMs: 25 });
      expect([...seen.values()].every((who) => who.length === 1)).toBe(true);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe('a later start on the same database', () => {
  const noop = async () => {};
  /** The probe's queues, subscriptions and schedules as a start sets them up, with no-op handlers. */
  const sameProbe = (cron: string) =>
    probeModule('probe', {
      subscriptions: { 'members.customer.created': noop, 'members.customer.updated': noop },
      jobs: { 'probe.reminder': { handler: noop }, 'probe.quarter-hourly': { cron, handler: noop } },
    });
  const setUp = async () =>
    (
      await platform.runtime.jobs.boss
        .getDb()
        .executeSql(
          `select (select count(*)::int from ${schema}.queue) as queues,
                  (select json_agg(json_build_object('event', event, 'name', name, 'updated', updated_on) order by event, name) from ${schema}.subscription) as subscriptions,
                  (select json_agg(json_build_object('name', name, 'cron', cron, 'updated', updated_on) order by name) from ${schema}.schedule) as schedules`,
          [],
        )
    ).rows[0];

  it('finds its queues, subscriptions and schedules and writes none of them again; a changed schedule is rewritten', async () => {
    const before = await setUp();
    expect(before.subscriptions).toHaveLength(2);
    // pg-boss stamps a rewrite with its clock: a minute later, any rewrite would show.
    await clock.tick(60_000);
    const again = await jobsFor(sameProbe('*/15 * * * *'));
    await again.stop();
    expect(await setUp()).toEqual(before);

    const changed = await jobsFor(sameProbe('*/30 * * * *'));
    await changed.stop();
    const after = await setUp();
    expect(after.schedules.find((s: { name: string }) => s.name === 'probe.quarter-hourly').cron).toBe('*/30 * * * *');
    expect(after.subscriptions).toEqual(before.subscriptions);
  });
});

describe('a start', () => {
  it("starts a queue's worker when the queue first holds a due job, not with the process", async () => {
    const probeWorkers = (jobs: Jobs) => jobs.boss.getWipData().map((w) => w.name).filter((name) => name.startsWith('probe.'));
    const again = await jobsFor(probe());
    try {
      // Its first look (made as it starts) has found nothing due for the reminders; it works the
      // probe's four queues and has started none of their workers.
      await again.status();
      await new Promise((r) => setTimeout(r, 50));
      expect((await again.status()).workers).toBe(4);
      expect(probeWorkers(again)).not.toContain('probe.reminder');
      // A commit's wake-up (or a look that finds a job) starts the queue's worker.
      again.nudge(['probe.reminder']);
      await eventually(() => expect(probeWorkers(again)).toContain('probe.reminder'));
    } finally {
      await again.stop();
    }
  });
});

describe('a stop', () => {
  it('lets the look for due jobs under way finish before it returns (the database closes next)', async () => {
    const again = await jobsFor(probe());
    const db = again.boss.getDb();
    const executeSql = db.executeSql;
    // The next look's statement waits until let go.
    let letGo = () => {};
    const held = new Promise<void>((r) => (letGo = r));
    let looking = false;
    db.executeSql = async (text, values) => {
      if (text.includes('select distinct name from')) {
        looking = true;
        await held;
      }
      return executeSql.call(db, text, values);
    };
    let stopped = false;
    try {
      await eventually(async () => {
        await clock.tick(1000);
        expect(looking).toBe(true);
      });
      const stopping = again.stop().then(() => void (stopped = true));
      await new Promise((r) => setTimeout(r, 100));
      expect(stopped).toBe(false);
      letGo();
      await stopping;
      expect(stopped).toBe(true);
    } finally {
      letGo();
      db.executeSql = executeSql;
      if (!stopped) await again.stop();
    }
  });
});

describe('an idle process', () => {
  it('asks for due jobs once a poll for all its queues, instead of every queue fetching', async () => {
    const db = platform.runtime.jobs.boss.getDb();
    const executeSql = db.executeSql;
    const sent: string[] = [];
    db.executeSql = (text, values) => {
      sent.push(JSON.stringify({ text, values }));
      return executeSql.call(db, text, values);
    };
    try {
      await advance(10);
    } finally {
      db.executeSql = executeSql;
    }
    const looks = sent.filter((s) => s.includes('select distinct name from'));
    expect(looks.length).toBeGreaterThan(0);
    expect(looks.length).toBeLessThanOrEqual(10);
    // A queue with nothing due is fetched from only by its worker's backstop poll (30 s apart):
    // once at most in these ten seconds, where it was every second before.
    const reminderFetches = sent.filter((s) => s.includes("j.name = 'probe.reminder'"));
    expect(reminderFetches.length).toBeLessThanOrEqual(1);
  });
});
