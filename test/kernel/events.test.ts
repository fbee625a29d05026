import { isDeepStrictEqual } from 'node:util';
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
import type { SubgraphModule } from '../../subgraphs/kernel/module.ts';
import type { CustomerFacts } from '../../subgraphs/members/events.ts';
import { eventually } from '../support/eventually.ts';
import { countStatements, jobStates } from '../support/jobs.ts';
import { probeModule, probePlatform } from '../support/probe-platform.ts';

const facts = (name: string): CustomerFacts => ({
  customerId: newId(),
  name,
  lastName: null,
  email: null,
  phone: null,
  emailVerified: false,
  phoneVerified: false,
});

const CREATED = 'members.customer.created';
const CREATED_QUEUE = subscriberQueue('probe', CREATED);

/**
 * What the probe's handlers saw: by customer (each test publishes for customers of its own), how
 * many times an event was handled and the event itself; when (test-clock time) each failing attempt
 * came; the jobs run.
 */
const handled = new Map<string, number>();
const events = new Map<string, DomainEvent>();
const failingAttempts: number[] = [];
const reminders: { at: number; data: Record<string, unknown> }[] = [];
const ticks: number[] = [];
const woken: Record<string, unknown>[] = [];

let clock: TestClock;
let platform: Platform;
const schema = `pgboss_events_${process.pid}`;

const customerOf = (event: DomainEvent) => (event.payload as CustomerFacts).customerId;

const probe = () =>
  probeModule('probe', {
    subscriptions: {
      [CREATED]: async (tx, event) => {
        handled.set(customerOf(event), (handled.get(customerOf(event)) ?? 0) + 1);
        events.set(customerOf(event), event);
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
      // Sent to by one test only: its worker has not started before.
      'probe.wake': { handler: async (_ctx, data) => void woken.push(data) },
    },
  });

/** Publishes a members event about a new customer in a transaction that commits, or rolls back; answers the customer's id. */
async function publish(name: typeof CREATED | 'members.customer.updated', who: string, fail = false): Promise<string> {
  const payload = facts(who);
  const done = RequestContext.system(platform.runtime, newId()).transaction(async (tx) => {
    tx.publish(name, payload);
    if (fail) throw new Error('rolled back');
  });
  if (fail) await expect(done).rejects.toThrow('rolled back');
  else await done;
  return payload.customerId;
}

/** Queues a job in a transaction of its own, due at `at` (now when null). */
const send = (queue: string, data: object, at: Date | null = null) =>
  RequestContext.system(platform.runtime, null).transaction(async (tx) => tx.runAt(queue, at, data));

/** What the subscriber's queue did with each job carrying a customer's event, oldest first. */
const statesFor = (customerId: string) => jobStates(platform.runtime.jobs, CREATED_QUEUE, { payload: { customerId } });

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

/** The queues a module's process works: one per subscription, one per job. */
const queuesOf = (module: SubgraphModule) => [
  ...Object.keys(module.subscriptions ?? {}).map((event) => subscriberQueue(module.name, event)),
  ...Object.keys(module.jobs ?? {}),
];

/** Another Jobs working a module's queues, as another start of the process makes one; it delivers no messages. */
const jobsFor = (module: SubgraphModule) =>
  Jobs.start(platform.runtime, { consume: [module], purge: false, clock, schema, sessionSettings: { [CLOCK_OVERRIDE_SETTING]: 'on' } });

beforeAll(async () => {
  clock = new TestClock(Date.now());
  platform = await probePlatform([probe()], { clock, jobsSchema: schema });
});

afterAll(async () => {
  await platform?.stop();
});

describe('domain events on the queue', () => {
  it('delivers an event published in a committed transaction, once; never one from a rolled-back transaction', async () => {
    const rolledBack = await publish(CREATED, 'Bob', true);
    const committed = await publish(CREATED, 'Ann');
    // Handled, and its job done: nothing is left in the queue that could deliver it again.
    await advanceUntil(async () => isDeepStrictEqual(await statesFor(committed), ['completed']), 30);
    expect(await statesFor(committed)).toEqual(['completed']);
    expect(handled.get(committed)).toBe(1);
    // The rolled-back transaction queued nothing: no job exists that could ever deliver its event.
    expect(await statesFor(rolledBack)).toEqual([]);
    expect(handled.has(rolledBack)).toBe(false);
  });

  it('skips a duplicate delivery of an event it already handled', async () => {
    const customer = await publish(CREATED, 'Cid');
    await advanceUntil(async () => isDeepStrictEqual(await statesFor(customer), ['completed']), 30);
    expect(handled.get(customer)).toBe(1);
    // The queue delivers at least once: the same event again (as after a lost acknowledgement).
    await send(CREATED_QUEUE, events.get(customer)!);
    await advanceUntil(async () => isDeepStrictEqual(await statesFor(customer), ['completed', 'completed']), 30);
    expect(await statesFor(customer)).toEqual(['completed', 'completed']);
    expect(handled.get(customer)).toBe(1);
  });

  it('retries a failing handler with growing delays, then leaves it dead for an operator to list and retry', async () => {
    failingAttempts.length = 0;
    const customer = await publish('members.customer.updated', 'Dee');
    // 1 try + 5 retries with exponential backoff (2 s doubling, jittered) fit in ten minutes.
    await advanceUntil(() => failingAttempts.length >= 6, 900, 5);
    expect(failingAttempts.length).toBe(6);
    const gaps = failingAttempts.slice(1).map((t, i) => t - failingAttempts[i]);
    expect(gaps[gaps.length - 1]).toBeGreaterThan(gaps[0]);
    const deadOnes = async () => (await listDeadJobs(platform.runtime)).filter((j) => customerOf(j.data as DomainEvent) === customer);
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
    await send('probe.reminder', { note: 'one hour later' }, at);
    // A minute before, a reminder due then runs and the earlier-sent one for later does not: the
    // queue hands out what is due oldest first, so the one for later would have come first.
    await clock.setTime(at.getTime() - 60_000);
    await send('probe.reminder', { note: 'now' });
    await eventually(() => expect(reminders).not.toHaveLength(0));
    expect(reminders.map((r) => r.data)).toEqual([{ note: 'now' }]);
    // Past its time, it runs.
    await advanceUntil(() => reminders.length === 2, 120, 5);
    expect(reminders).toHaveLength(2);
    expect(reminders[1].at).toBeGreaterThanOrEqual(at.getTime());
    expect(reminders[1].data).toEqual({ note: 'one hour later' });
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
          [CREATED]: async (_tx, event) => void seen.set(event.id, [...(seen.get(event.id) ?? []), label]),
        },
      });
    const replicaSchema = `pgboss_replicas_${process.pid}`;
    const a = await probePlatform([replica('a')], { jobsSchema: replicaSchema });
    const b = await probePlatform([replica('b')], { jobsSchema: replicaSchema });
    try {
      const ctx = RequestContext.system(a.runtime, newId());
      for (let i = 0; i < 20; i++) await ctx.transaction(async (tx) => tx.publish(CREATED, facts(`R${i}`)));
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
      subscriptions: { [CREATED]: noop, 'members.customer.updated': noop },
      jobs: { 'probe.reminder': { handler: noop }, 'probe.quarter-hourly': { cron, handler: noop }, 'probe.wake': { handler: noop } },
    });
  /** The probe's queues and schedules as pg-boss lists them, with when each was last written. */
  const setUp = async () => {
    const boss = platform.runtime.jobs.boss;
    const probes = <T extends { name: string }>(items: T[]) => items.filter((i) => i.name.startsWith('probe.')).sort((x, y) => x.name.localeCompare(y.name));
    return {
      queues: probes(await boss.getQueues()).map((q) => ({ name: q.name, updated: new Date(q.updatedOn).getTime() })),
      schedules: probes(await boss.getSchedules()).map((s) => ({ name: s.name, cron: s.cron, updated: new Date(s.updatedOn).getTime() })),
    };
  };

  it('finds its queues and schedules and writes none of them again; a changed schedule is rewritten; events still reach it', async () => {
    const before = await setUp();
    expect(before.queues.map((q) => q.name)).toEqual(queuesOf(sameProbe('')).sort());
    // pg-boss stamps a rewrite with its clock: a minute later, any rewrite would show.
    await clock.tick(60_000);
    const again = await jobsFor(sameProbe('*/15 * * * *'));
    await again.stop();
    expect(await setUp()).toEqual(before);

    const changed = await jobsFor(sameProbe('*/30 * * * *'));
    await changed.stop();
    const after = await setUp();
    expect(after.schedules.find((s) => s.name === 'probe.quarter-hourly')?.cron).toBe('*/30 * * * *');
    expect(after.queues).toEqual(before.queues);
    // Its subscriptions still hand it each event, once.
    const customer = await publish(CREATED, 'Eve');
    await advanceUntil(async () => isDeepStrictEqual(await statesFor(customer), ['completed']), 30);
    expect(handled.get(customer)).toBe(1);
  });
});

describe('a commit', () => {
  it("wakes its queue's worker, started then and not with the process: the job runs with the clock standing still", async () => {
    const workers = () => platform.runtime.jobs.boss.getWipData().map((w) => w.name);
    // No job has been sent to this queue: its worker has not started.
    expect(workers()).not.toContain('probe.wake');
    const at = clock.now();
    await send('probe.wake', { n: 1 });
    await eventually(() => expect(woken).toEqual([{ n: 1 }]));
    expect(workers()).toContain('probe.wake');
    // No timer fired (they fire only as the test clock moves): the commit's wake-up ran it.
    expect(clock.now()).toBe(at);
  });
});

describe('a stop', () => {
  it('lets the look for due jobs under way end before the queue stops (the database closes next)', async () => {
    const module = probe();
    const again = await jobsFor(module);
    const queues = queuesOf(module);
    // The look: one statement that asks which of this process's queues hold a due job, naming them
    // all. Held until let go.
    const asksAboutItsQueues = (values: unknown[] | undefined) => Array.isArray(values?.[0]) && isDeepStrictEqual([...values[0]].sort(), [...queues].sort());
    let letGo = () => {};
    const held = new Promise<void>((r) => (letGo = r));
    type Look = 'not yet' | 'held' | 'answered';
    let look = 'not yet' as Look;
    const db = again.boss.getDb();
    const executeSql = db.executeSql;
    db.executeSql = async (text, values) => {
      if (look !== 'not yet' || !asksAboutItsQueues(values)) return executeSql.call(db, text, values);
      look = 'held';
      await held;
      const answer = await executeSql.call(db, text, values);
      look = 'answered';
      return answer;
    };
    // Where the look was when the queue (pg-boss) was told to stop.
    let lookAtQueueStop: Look | undefined;
    const stopQueue = again.boss.stop.bind(again.boss);
    again.boss.stop = (options) => {
      lookAtQueueStop ??= look;
      return stopQueue(options);
    };
    let stopped = false;
    try {
      await advanceUntil(() => look === 'held', 10);
      expect(look).toBe('held');
      const stopping = again.stop();
      // Let go at once: the look still needs the database to answer (I/O), while a stop that did
      // not wait for it would tell the queue to stop within the same turn of the event loop.
      letGo();
      await stopping;
      stopped = true;
      expect(lookAtQueueStop).toBe('answered');
    } finally {
      letGo();
      db.executeSql = executeSql;
      if (!stopped) await again.stop();
    }
  });
});

describe('an idle process', () => {
  it('asks for due jobs in one statement for all its queues: what it sends does not grow with them', async () => {
    const idle = (name: string, queues: number) =>
      probeModule(name, { jobs: Object.fromEntries(Array.from({ length: queues }, (_, i) => [`${name}.q${i}`, { handler: async () => {} }])) });
    // Two processes started together (their timers in step), of 1 and of 20 queues, none holding a job.
    const few = await jobsFor(idle('few', 1));
    const many = await jobsFor(idle('many', 20));
    const counts = [countStatements(few), countStatements(many)];
    try {
      // Ten seconds, a second at a time, each step's statements answered before the next.
      for (let i = 0; i < 10; i++) {
        await clock.tick(1000);
        for (const count of counts) await count.settled();
      }
    } finally {
      for (const count of counts) count.stop();
      await few.stop();
      await many.stop();
    }
    const [fromFew, fromMany] = counts.map((c) => c.sent);
    expect(fromFew).toBeGreaterThan(0);
    // A fetch of its own for each queue, even once in these ten seconds, would be 19 more.
    expect(Math.abs(fromMany - fromFew)).toBeLessThan(19);
  });
});
