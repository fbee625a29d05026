import { PgBoss, type ClockTimer, type Db, type JobWithMetadata, type Queue, type Schedule, type SendOptions } from 'pg-boss';
import type { Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import { RequestContext } from '../context.ts';
import type { DomainEvent, EventHandler, EventName, JobDefinition, Subscriptions } from '../events.ts';
import type { SubgraphModule } from '../module.ts';
import type { Runtime } from '../runtime.ts';
import type { Tables } from '../tables.ts';
import { connectionDb, transactionDb } from './adapter.ts';
import { purgeKernelTables } from './purge.ts';
import { JOBS_SCHEMA, PURGE_QUEUE, QUEUE_DEFAULTS, subscriberQueue } from './queues.ts';

export interface JobsOptions {
  /** Run workers for these subgraphs' subscriptions and jobs (messaging's works the message queue); none when empty. */
  consume: SubgraphModule[];
  /** Run the kernel's own hourly purge here (false in the distributed router, which serves no subgraph). */
  purge: boolean;
  schema?: string;
  clock: Clock;
  /** Settings every session was opened with (a test clock's opt-in). */
  sessionSettings?: Record<string, string>;
  /** How often this process looks for due jobs in its queues (default 1 s). */
  pollSeconds?: number;
}

/**
 * How often a worker fetches on its own when nothing woke it: a backstop should a wake-up be lost
 * (the database unreachable at that moment), not the way jobs are found (Jobs.watch).
 */
const BACKSTOP_SECONDS = 30;

interface Handler {
  poll: { pollingIntervalSeconds: number; batchSize: number };
  handle: (job: JobWithMetadata<unknown>) => Promise<void>;
  /** Set once the queue's pg-boss worker is starting (Jobs.wake). */
  started: Promise<void> | undefined;
  /** The pg-boss worker's id, once it has started. */
  worker: string | undefined;
}

/**
 * What earlier starts set up: queues, event subscriptions, schedules. Read in three statements so
 * that a start on an existing database writes nothing and asks nothing more per queue (31 queues
 * took ~0.5 s of an embedded start on PGlite, asked one by one). A new PGlite data folder starts
 * from a snapshot where the build set them up (scripts/snapshot.ts), so its first start is one too.
 */
interface SetUp {
  queues: Map<string, Queue>;
  subscriptions: Set<string>;
  schedules: Map<string, Schedule>;
}

async function readSetUp(boss: PgBoss, db: Db, schema: string): Promise<SetUp> {
  const { rows } = await db.executeSql(`select event, name from ${schema}.subscription`, []);
  return {
    queues: new Map((await boss.getQueues()).map((q) => [q.name, q])),
    subscriptions: new Set(rows.map((r) => `${r.event}\n${r.name}`)),
    // Only the default key: the one `schedule` below writes.
    schedules: new Map((await boss.getSchedules()).filter((s) => s.key === '').map((s) => [s.name, s])),
  };
}

/** A job or event written by a transaction, inserted just before it commits. */
export interface PendingJob {
  queue?: string;
  event?: DomainEvent;
  data?: object;
  startAfter?: Date;
}

/**
 * Domain events, background jobs and outgoing messages on pg-boss, over the ORM's connection.
 * Events fan out to one queue per subscribing subgraph (pg-boss subscriptions); each process works
 * only its own subgraphs' queues, and pg-boss's `skip locked` claims hand a job to one worker of all
 * the replicas.
 */
export class Jobs {
  /** The queues this process works, with what works them. */
  private readonly handlers = new Map<string, Handler>();
  private watching: ClockTimer | undefined;
  /** The watch's look under way, which stop() lets finish before the database closes. */
  private looking: Promise<void> | undefined;
  private stopping = false;

  private constructor(
    readonly boss: PgBoss,
    readonly schema: string,
    private readonly queueOptions: typeof QUEUE_DEFAULTS,
    private readonly setUp: SetUp,
    private readonly clock: Clock,
  ) {}

  static async start(runtime: Runtime, options: JobsOptions): Promise<Jobs> {
    const schema = options.schema ?? JOBS_SCHEMA;
    const db = await connectionDb(runtime.db, options.sessionSettings);
    const consuming = options.consume.length > 0 || options.purge;
    const boss = new PgBoss({
      db,
      schema,
      backend: runtime.db.kind === 'pglite' ? ('pglite' as const) : ('postgres' as const),
      clock: options.clock,
      supervise: consuming,
      schedule: consuming,
      superviseIntervalSeconds: runtime.config.jobSuperviseSeconds,
      // Expiry of abandoned jobs runs in pg-boss's per-queue monitor pass, 60 s apart by default and
      // claimed in the database: a process started after one that died waited up to a minute
      // before the dead one's jobs were retried. The monitor now follows JOB_SUPERVISE_SECONDS.
      monitorIntervalSeconds: runtime.config.jobSuperviseSeconds,
    });
    boss.on('error', (error) => console.error('[jobs]', error));
    await startBoss(boss);
    // A process that works no queue sets none up.
    const setUp = consuming
      ? await readSetUp(boss, db, schema)
      : { queues: new Map<string, Queue>(), subscriptions: new Set<string>(), schedules: new Map<string, Schedule>() };
    const jobs = new Jobs(boss, schema, { ...QUEUE_DEFAULTS, expireInSeconds: runtime.config.jobExpireSeconds }, setUp, options.clock);
    const poll = { pollingIntervalSeconds: BACKSTOP_SECONDS, batchSize: 1 };

    if (options.purge) {
      await jobs.queue(PURGE_QUEUE);
      jobs.work(PURGE_QUEUE, poll, () => purgeKernelTables(runtime));
      await jobs.scheduleAtStart(PURGE_QUEUE, '17 * * * *');
    }
    for (const module of options.consume) {
      for (const [event, handler] of Object.entries(module.subscriptions ?? {}) as [string, Subscriptions[keyof Subscriptions]][]) {
        const name = subscriberQueue(module.name, event);
        await jobs.queue(name);
        await jobs.subscribe(event, name);
        jobs.work(name, poll, (job) => handleEvent(runtime, name, job.data as DomainEvent, handler as EventHandler<EventName>));
      }
      for (const [name, definition] of Object.entries(module.jobs ?? {}) as [string, JobDefinition][]) {
        await jobs.queue(name);
        jobs.work(name, poll, (job) => runJob(runtime, definition, (job.data ?? {}) as Record<string, unknown>));
        if (definition.cron) await jobs.scheduleAtStart(name, definition.cron);
        else if (jobs.setUp.schedules.has(name)) await boss.unschedule(name);
      }
    }
    if (jobs.handlers.size) jobs.watch(options.pollSeconds ?? 1);
    return jobs;
  }

  /**
   * One statement a second asks which of this process's queues hold a job that is due: new, come
   * due after its `startAfter`, up for a retry, sent by a cron schedule or by another process; the
   * workers of those queues are woken (a commit here wakes its own at once: nudge). It replaces each
   * worker polling every second, which in the embedded server was 31 fetches a second, idle: 314
   * of the 318 statements of 10 idle seconds, 6–10% of a core on PGlite. pg-boss's LISTEN/NOTIFY
   * wake-ups cannot serve instead: they come when a job is written, not when a delayed one comes
   * due (campaign batches, retries), and need a listening connection PGlite's one session has not.
   */
  private watch(seconds: number) {
    const names = [...this.handlers.keys()];
    // The condition pg-boss's fetch claims on (and its partial index job_i11 covers).
    const due = `select distinct name from ${this.schema}.job where name = any($1::text[]) and state < 'active' and not blocked and start_after <= ${this.schema}.job_now()`;
    const look = async () => {
      try {
        const { rows } = await this.boss.getDb().executeSql(due, [names]);
        this.nudge(rows.map((r) => r.name as string));
      } catch (error) {
        if (!this.stopping) console.error('[jobs]', error);
      } finally {
        if (!this.stopping) this.watching = this.clock.setTimeout(() => void (this.looking = look()), seconds * 1000);
      }
    };
    // At once, for what is due already (a job an earlier process left, one sent while none ran),
    // as each worker's first fetch found it when they all started with the process; then every
    // `seconds`.
    this.looking = look();
  }

  /**
   * Runs a queue's job on a cron schedule (UTC), replacing any earlier schedule of that queue; one
   * run per occurrence however many processes schedule it.
   */
  async schedule(name: string, cron: string, data: object | null = null): Promise<void> {
    await this.boss.schedule(name, cron, data, { tz: 'UTC' });
  }

  /** At start: the schedule, unless it is already the one an earlier start wrote. */
  private async scheduleAtStart(name: string, cron: string) {
    const current = this.setUp.schedules.get(name);
    if (current?.cron !== cron || current.timezone !== 'UTC' || current.data != null) await this.schedule(name, cron);
  }

  /**
   * Creates a queue once; a new one's cache entry is warmed so a send inside a transaction never
   * looks it up on another path (pg-boss cached the queues that existed when it started). A queue
   * made with other options (an earlier start's JOB_EXPIRE_SECONDS, the build's defaults in a new
   * data folder) takes this start's.
   */
  private async queue(name: string) {
    const existing = this.setUp.queues.get(name);
    if (existing) {
      const keys = Object.keys(this.queueOptions) as (keyof typeof QUEUE_DEFAULTS)[];
      if (keys.some((k) => existing[k] !== this.queueOptions[k])) await this.boss.updateQueue(name, this.queueOptions);
      return;
    }
    await this.boss.createQueue(name, this.queueOptions);
    await this.boss.findJobs(name, { id: '00000000-0000-0000-0000-000000000000' });
    this.setUp.queues.set(name, { name, ...this.queueOptions });
  }

  /** At start: the subscription, unless an earlier start made it. */
  private async subscribe(event: string, name: string) {
    const key = `${event}\n${name}`;
    if (this.setUp.subscriptions.has(key)) return;
    await this.boss.subscribe(event, name);
    this.setUp.subscriptions.add(key);
  }

  /**
   * Works a queue from the first time it holds a job that is due (Jobs.watch, or a commit here:
   * nudge). pg-boss's worker fetches as it starts: at start-up, one worker a queue, that was 32
   * statements (~0.1 s of an embedded start on PGlite) to find, nearly always, nothing; the watch
   * asks for every queue in one.
   */
  private work(name: string, poll: { pollingIntervalSeconds: number; batchSize: number }, handle: (job: JobWithMetadata<unknown>) => Promise<void>) {
    this.handlers.set(name, { poll, handle, started: undefined, worker: undefined });
  }

  private wake(name: string, handler: Handler): void {
    handler.started ??= this.boss
      .work(name, { ...handler.poll, includeMetadata: true }, async ([job]) => {
        await handler.handle(job);
        // At batch size 1 pg-boss waits a polling interval after every job, even with more waiting
        // (a burst of events ran at one per second per queue): a handled job wakes the worker to
        // fetch again at once; an empty fetch falls back to polling.
        if (handler.worker) this.boss.notifyWorker(handler.worker);
      })
      .then(
        (id) => void (handler.worker = id),
        (error) => {
          // The next look or commit tries again.
          handler.started = undefined;
          if (!this.stopping) console.error('[jobs]', error);
        },
      );
  }

  /**
   * Writes a transaction's jobs and events through that transaction, so they exist only if it
   * commits. Subscribers are read through it too: in the distributed topology the producer does
   * not know who subscribes.
   */
  async write(trx: Transaction<Tables>, pending: PendingJob[]): Promise<string[]> {
    if (!pending.length) return [];
    const db: Db = transactionDb(trx);
    const queues: string[] = [];
    const subscribers = new Map<string, string[]>();
    for (const job of pending) {
      const options: SendOptions = { db, ...(job.startAfter ? { startAfter: job.startAfter } : {}) };
      if (job.queue) {
        await this.boss.send(job.queue, job.data ?? {}, options);
        queues.push(job.queue);
        continue;
      }
      const event = job.event!;
      let names = subscribers.get(event.name);
      if (!names) {
        const { rows } = await db.executeSql(`select name from ${this.schema}.subscription where event = $1`, [event.name]);
        names = rows.map((r) => r.name as string);
        subscribers.set(event.name, names);
      }
      for (const name of names) await this.boss.send(name, event, options);
      queues.push(...names);
    }
    return queues;
  }

  /** Wakes this process's workers of queues a commit just wrote to, instead of waiting for their poll. */
  nudge(queues: string[]): void {
    if (this.stopping) return;
    for (const name of new Set(queues)) {
      const handler = this.handlers.get(name);
      if (handler?.worker) this.boss.notifyWorker(handler.worker);
      else if (handler) this.wake(name, handler);
    }
  }

  /** For /readyz: whether workers run here, and how long the oldest runnable job has waited. */
  async status(): Promise<{ workers: number; oldestWaitingSeconds: number | null }> {
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `select extract(epoch from (now() - min(start_after)))::float as age from ${this.schema}.job where state in ('created', 'retry') and start_after <= now()`,
      );
    const age = rows[0]?.age;
    return { workers: this.handlers.size, oldestWaitingSeconds: age == null ? null : Math.max(0, Math.round(age)) };
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.watching !== undefined) this.clock.clearTimeout(this.watching);
    // A look under way ends before the database can close under it (it catches its own errors);
    // a worker it or a commit is still starting is stopped with the others.
    await this.looking;
    await Promise.all([...this.handlers.values()].map((h) => h.started));
    await this.boss.stop({ graceful: true, timeout: 5000, close: false });
  }
}

/** Subscriber side: one transaction that records (subscriber, event id) and runs the handler, or skips a repeat. */
export async function handleEvent(runtime: Runtime, subscriber: string, event: DomainEvent, handler: (tx: RequestContext, e: DomainEvent) => Promise<void>) {
  const ctx = RequestContext.system(runtime, event.companyId);
  await ctx.transaction(async (tx) => {
    const fresh = await tx.query
      .insertInto('kernel.event_receipt')
      .values({ subscriber, eventId: event.id, handledAt: tx.now() })
      .onConflict((oc) => oc.doNothing())
      .returning('eventId')
      .execute();
    if (fresh.length) await handler(tx, event);
  });
}

async function runJob(runtime: Runtime, definition: JobDefinition, data: Record<string, unknown>) {
  const companyId = typeof data.companyId === 'string' ? data.companyId : null;
  await definition.handler(RequestContext.system(runtime, companyId), data);
}

/**
 * Subgraph processes started together on an empty database (the distributed topology,
 * docker-compose.yml) each install pg-boss's schema: PostgreSQL lets two `create schema if not
 * exists` race, and the slower fails on a duplicate catalogue key (23505) once the faster commits.
 * The install is one transaction, so the failed one left nothing: starting again finds the schema
 * the other made.
 */
async function startBoss(boss: PgBoss, attempts = 3): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.start();
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '23505' || attempt >= attempts) throw error;
      await boss.stop({ graceful: false }).catch(() => undefined);
    }
  }
}
