import { sql } from 'kysely';
import pg from 'pg';
import type { RequestContext } from './context.ts';
import type { Database } from './database.ts';
import { invalidatePrincipals, suspendPrincipalCache, type PrincipalChange } from './principal.ts';
import { invalidateTenantSettings } from './tenant.ts';

/**
 * Ending a credential everywhere at once.
 *
 * Every process caches the principals it resolves (principal.ts), so a revoked API key or an ended
 * session would keep working on the other processes of the distributed topology until their entry
 * expires. Instead, the transaction that ends a credential also sends a PostgreSQL notification on
 * `PRINCIPALS_CHANNEL`, and every process listens on that channel on a connection of its own and
 * forgets what it names when one arrives. This is the right tool rather than the kernel's events:
 * - NOTIFY is transactional: it is sent with the commit, never for a rollback, and never before
 *   the revocation is visible, so a process that forgets on it re-reads the ended row;
 * - it reaches every listening process (an event reaches one worker per subscribing subgraph, and
 *   the router process subscribes to none), in milliseconds rather than a polling interval;
 * - nothing is stored: a process that was not listening has nothing to catch up on, because it
 *   cached nothing meanwhile (below).
 * The notification names what ended (an API key, a session, a customer's sessions, a host), and a
 * process forgets only the entries it touches: sessions end at every refresh and sign-out, and
 * emptying every process's whole cache each time would make the cache useless on a busy platform.
 *
 * The listener holds one connection per process outside the ORM's pool (a LISTEN must stay on one
 * session; a pooled client would be handed back and the registration lost). While it is not
 * connected (start-up, a dropped connection, a database restart) the principal cache is suspended,
 * so no process answers from memory what it might not hear about; it reconnects with backoff and
 * a heartbeat notices a connection that died silently. The cache's TTL stays as the last net.
 *
 * PGlite: one process owns the database (server.lock), and the process that ends a credential
 * clears its own cache after the commit, so there is nothing to send and no one to listen.
 */
export const PRINCIPALS_CHANNEL = 'kernel_principals';

/** How often the listener checks its connection, and how long an answer may take. */
const HEARTBEAT_MS = 2000;
const HEARTBEAT_TIMEOUT_MS = 1500;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 2000;

/**
 * Says, inside the transaction that ends a credential (an API key revoked, a session ended, a
 * customer's sessions ended) or changes what headers resolve to (a storefront domain claimed),
 * that the principals cached for it are stale: this process forgets them after the commit, every
 * other one when the commit's notification reaches it.
 */
export async function announceRevocation(tx: RequestContext, change: PrincipalChange): Promise<void> {
  tx.afterCommit(() => invalidatePrincipals(change));
  if (tx.db.kind === 'postgresql') await notify(tx, JSON.stringify(change));
}

/**
 * A company's settings changed (time zone, currency, name): every process forgets its cached copy
 * (kernel/tenant.ts), on the same channel and for the same reasons as a credential. A process that
 * misses one while its listener is down forgets every company's when it listens again.
 */
export async function announceCompanySettings(tx: RequestContext, companyId: string): Promise<void> {
  tx.afterCommit(() => invalidateTenantSettings(companyId));
  if (tx.db.kind === 'postgresql') await notify(tx, JSON.stringify({ company: companyId }));
}

/** A notification on the principals' channel, sent when the transaction commits (PostgreSQL's NOTIFY). */
const notify = (tx: RequestContext, payload: string) => tx.query.selectNoFrom(sql`pg_notify(${PRINCIPALS_CHANNEL}, ${payload})`.as('sent')).execute();

/** What a notification says went stale: a company's settings, or principals. */
function onNotification(payload: string | undefined): void {
  const company = companyOf(payload);
  if (company) invalidateTenantSettings(company);
  else invalidatePrincipals(changeOf(payload));
}

function companyOf(payload: string | undefined): string | undefined {
  try {
    const change = JSON.parse(payload ?? '');
    return typeof change?.company === 'string' && Object.keys(change).length === 1 ? change.company : undefined;
  } catch {
    return undefined;
  }
}

/** The change a notification names; anything unreadable forgets every principal. */
function changeOf(payload: string | undefined): PrincipalChange | undefined {
  let change: unknown;
  try {
    change = JSON.parse(payload ?? '');
  } catch {
    return undefined;
  }
  if (typeof change !== 'object' || change === null) return undefined;
  const entries = Object.entries(change);
  const known = entries.length === 1 && ['apiKey', 'session', 'customer', 'host'].includes(entries[0][0]) && typeof entries[0][1] === 'string';
  return known ? (change as PrincipalChange) : undefined;
}

export interface RevocationListener {
  /** True while the process hears revocations (always on PGlite). */
  readonly listening: boolean;
  stop(): Promise<void>;
}

/** Starts listening for revocations (PostgreSQL); resolves once listening or after the first failed try. */
export async function listenForRevocations(db: Database, databaseUrl: string | undefined): Promise<RevocationListener> {
  if (db.kind !== 'postgresql' || !databaseUrl) return { listening: true, stop: async () => {} };
  const listener = new Listener(databaseUrl);
  await listener.connect();
  return listener;
}

class Listener implements RevocationListener {
  private client?: pg.Client;
  private stopped = false;
  /** Resumes the principal cache; held while not listening. */
  private resume?: () => void = suspendPrincipalCache();
  private retryMs = RETRY_MIN_MS;
  private retry?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private outage = false;

  constructor(private readonly url: string) {}

  get listening(): boolean {
    return this.client !== undefined;
  }

  async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.url,
      application_name: `kernel-revocations ${process.pid}`,
      keepAlive: true,
      connectionTimeoutMillis: 5000,
    });
    let lost = false;
    const fail = (error?: unknown) => {
      if (lost) return;
      lost = true;
      this.lost(client, error);
    };
    client.on('error', fail);
    client.on('end', () => fail(new Error('connection ended')));
    client.on('notification', (message) => {
      if (message.channel === PRINCIPALS_CHANNEL) onNotification(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${PRINCIPALS_CHANNEL}`);
    } catch (error) {
      fail(error);
      return;
    }
    if (lost) return;
    if (this.stopped) {
      await close(client);
      return;
    }
    this.client = client;
    this.retryMs = RETRY_MIN_MS;
    if (this.outage) {
      console.info('[revocations] listening again; principal cache resumed');
      // Company settings stay cached through an outage (their TTL is short): forget what might have changed.
      invalidateTenantSettings();
    }
    this.outage = false;
    // Whatever was revoked while no one listened is read afresh: nothing was cached meanwhile.
    this.resume?.();
    this.resume = undefined;
    this.heartbeat = setInterval(() => this.beat(client, fail), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.client === client) {
      this.client = undefined;
      clearInterval(this.heartbeat);
    }
    void close(client);
    if (this.stopped) return;
    this.resume ??= suspendPrincipalCache();
    if (!this.outage)
      console.warn(`[revocations] not listening (${error instanceof Error ? error.message : String(error)}); principal cache suspended, reconnecting`);
    this.outage = true;
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  /** A connection that died without a word (a network partition) fails this and is replaced. */
  private beat(client: pg.Client, fail: (error: unknown) => void): void {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('heartbeat unanswered')), HEARTBEAT_TIMEOUT_MS);
    });
    Promise.race([client.query('select 1'), late]).then(
      () => clearTimeout(timer),
      (error) => {
        clearTimeout(timer);
        fail(error);
      },
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    this.resume?.();
    this.resume = undefined;
    if (client) await close(client);
  }
}

/** Ends a client without waiting on a dead socket for more than a moment. */
async function close(client: pg.Client): Promise<void> {
  const ended = client.end().catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ended, new Promise<void>((r) => (timer = setTimeout(r, 1000)))]);
  clearTimeout(timer);
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
