import type { JobWithMetadata } from 'pg-boss';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { newId } from '../ids.ts';
import { MESSAGE_QUEUE } from '../jobs/queues.ts';
import type { Runtime } from '../runtime.ts';
import { OutboxMessage, type Channel } from './entity.ts';
import { transportsFor, type Transport } from './transports.ts';

export { OutboxMessage, CHANNELS, type Channel } from './entity.ts';

/**
 * Queues a message with the transaction of the change that causes it: the message row (kept for
 * /dev/outbox and for the record) and a delivery job, both gone if the transaction rolls back.
 */
export function enqueueMessage(tx: RequestContext, message: { companyId: string | null; channel: Channel; to: string; subject?: string; body: string }): void {
  const row = tx.em.create(OutboxMessage, { id: newId(), ...message, subject: message.subject ?? null, status: 'pending', attempts: 0 });
  tx.runAt(MESSAGE_QUEUE, null, { id: row.id });
}

const transports = new WeakMap<Runtime, Record<Channel, Transport>>();

/**
 * Delivers one queued message. A failure is recorded on the row and thrown, so the queue retries it
 * with backoff; a job claimed by a process that died is retried when its claim expires, and a
 * message already delivered is not sent again.
 */
export async function deliverMessage(runtime: Runtime, job: JobWithMetadata<{ id: string }>): Promise<void> {
  const conn = runtime.db.orm.em.getConnection();
  const [row] = await conn.execute<any[]>('select id, channel, recipient, subject, body, status from kernel.outbox_message where id = ?', [job.data.id]);
  if (!row || row.status === 'delivered') return;
  let byChannel = transports.get(runtime);
  if (!byChannel) transports.set(runtime, (byChannel = transportsFor(runtime.config)));
  try {
    await byChannel[row.channel as Channel].send({ channel: row.channel, to: row.recipient, subject: row.subject, body: row.body });
  } catch (error: any) {
    const last = job.retryCount >= job.retryLimit;
    await conn.execute(`update kernel.outbox_message set status = ?, attempts = attempts + 1, last_error = ? where id = ?`, [
      last ? 'failed' : 'pending',
      String(error?.message ?? error),
      row.id,
    ]);
    throw error;
  }
  await conn.execute(`update kernel.outbox_message set status = 'delivered', attempts = attempts + 1, delivered_at = ?, last_error = null where id = ?`, [
    new Date(runtime.clock.now()),
    row.id,
  ]);
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
