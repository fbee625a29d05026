import type { EntityManager } from '@mikro-orm/postgresql';
import type { Database } from '../database.ts';
import { committed } from '../transactions.ts';
import { OutboxMessage, type Channel } from './entity.ts';
import type { Transport } from './transports.ts';

export { OutboxMessage, CHANNELS, type Channel } from './entity.ts';

/** Queues a message in the caller's unit of work: it is sent only if the surrounding transaction commits. */
export function enqueueMessage(
  em: EntityManager,
  message: { companyId: string | null; channel: Channel; to: string; subject?: string; body: string },
): void {
  em.create(OutboxMessage, { ...message, subject: message.subject ?? null, status: 'pending', attempts: 0 } as any);
}

const MAX_ATTEMPTS = 5;

/**
 * Delivers pending messages. Rows are claimed with `for update skip locked`, so several processes
 * (distributed topology) can run a dispatcher each. Runs after every commit that wrote a message,
 * and on a slow poll for retries and for messages written by other processes.
 */
export function startOutboxDispatcher(db: Database, transports: Record<Channel, Transport>, pollMs = 2000): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const drain = async () => {
    do {
      again = false;
      const conn = db.orm.em.getConnection();
      const claimed = await conn.execute<any[]>(
        `update kernel.outbox_message set status = 'sending', attempts = attempts + 1
          where id in (select id from kernel.outbox_message where status = 'pending' order by created_at limit 20 for update skip locked)
          returning id, channel, recipient, subject, body, attempts`,
      );
      for (const row of claimed) {
        try {
          await transports[row.channel as Channel].send({ channel: row.channel, to: row.recipient, subject: row.subject, body: row.body });
          await conn.execute(`update kernel.outbox_message set status = 'delivered', delivered_at = now(), last_error = null where id = ?`, [row.id]);
        } catch (error: any) {
          const status = row.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
          await conn.execute(`update kernel.outbox_message set status = ?, last_error = ? where id = ?`, [status, String(error?.message ?? error), row.id]);
        }
      }
      if (claimed.length === 20) again = true;
    } while (again && !stopped);
  };

  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error) => {
        if (!stopped) console.error('[outbox] delivery failed', error);
      })
      .finally(() => {
        running = null;
      });
  };

  const onCommit = () => kick();
  committed.on('OutboxMessage', onCommit);
  const timer = setInterval(kick, pollMs);
  timer.unref();
  kick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      committed.off('OutboxMessage', onCommit);
      await running;
    },
  };
}

/** Messages delivered to an address in the last hour (development and tests only). */
export async function recentMessages(em: EntityManager, to: string) {
  const since = new Date(Date.now() - 60 * 60 * 1000);
  const rows = await em.find(
    OutboxMessage,
    // Addresses are stored as normalised (emails lower-cased); accept the address as typed too.
    { to: { $in: [...new Set([to, to.toLowerCase()])] }, status: 'delivered', createdAt: { $gte: since } },
    { orderBy: { createdAt: 'desc' }, limit: 100 },
  );
  return rows.map((m) => ({ channel: m.channel, to: m.to, subject: m.subject, body: m.body, createdAt: m.createdAt.toISOString() }));
}
