import type { JobWithMetadata } from 'pg-boss';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { newId } from '../ids.ts';
import { anyOf, systemQuery } from '../query.ts';
import { MESSAGE_QUEUE } from '../jobs/queues.ts';
import type { Runtime } from '../runtime.ts';
import { OutboxMessage, type Channel } from './entity.ts';
import { transportsFor, type Transport } from './transports.ts';

export { OutboxMessage, type Channel } from './entity.ts';

/**
 * Queues a message with the transaction of the change that causes it: the message row (kept for
 * /dev/outbox and for the record) and a delivery job, both gone if the transaction rolls back.
 */
export function enqueueMessage(tx: RequestContext, message: { companyId: string | null; channel: Channel; to: string; subject?: string; body: string }): void {
  const { to, ...rest } = message;
  const row = tx.em.create(OutboxMessage, { id: newId(), ...rest, recipient: to, subject: message.subject ?? null, status: 'pending', attempts: 0 });
  tx.runAt(MESSAGE_QUEUE, null, { id: row.id });
}

const transports = new WeakMap<Runtime, Record<Channel, Transport>>();

/**
 * Delivers one queued message. A failure is recorded on the row and thrown, so the queue retries it
 * with backoff; a job claimed by a process that died is retried when its claim expires, and a
 * message already delivered is not sent again.
 */
export async function deliverMessage(runtime: Runtime, job: JobWithMetadata<{ id: string }>): Promise<void> {
  const q = systemQuery(runtime.db.orm.em);
  const messages = 'kernel.outbox_message';
  const row = await q.selectFrom(messages).select(['id', 'channel', 'recipient', 'subject', 'body', 'status']).where('id', '=', job.data.id).executeTakeFirst();
  if (!row || row.status === 'delivered') return;
  let byChannel = transports.get(runtime);
  if (!byChannel) transports.set(runtime, (byChannel = transportsFor(runtime.config)));
  try {
    await byChannel[row.channel as Channel].send({ channel: row.channel as Channel, to: row.recipient, subject: row.subject, body: row.body });
  } catch (error) {
    const last = job.retryCount >= job.retryLimit;
    await q
      .updateTable(messages)
      .set((eb) => ({
        status: last ? 'failed' : 'pending',
        attempts: eb('attempts', '+', 1),
        lastError: String((error as { message?: unknown } | null | undefined)?.message ?? error),
      }))
      .where('id', '=', row.id)
      .execute();
    throw error;
  }
  await q
    .updateTable(messages)
    .set((eb) => ({ status: 'delivered', attempts: eb('attempts', '+', 1), deliveredAt: new Date(runtime.clock.now()), lastError: null }))
    .where('id', '=', row.id)
    .execute();
}

/** Messages delivered to an address in the last hour (development and tests only). */
export async function recentMessages(em: EntityManager, to: string) {
  const since = new Date(Date.now() - 60 * 60 * 1000);
  const rows = await systemQuery(em)
    .selectFrom('kernel.outbox_message')
    .select(['channel', 'recipient', 'subject', 'body', 'createdAt'])
    // Addresses are stored as normalised (emails lower-cased); accept the address as typed too.
    .where('recipient', '=', anyOf([...new Set([to, to.toLowerCase()])]))
    .where('status', '=', 'delivered')
    .where('createdAt', '>=', since)
    .orderBy('createdAt', 'desc')
    .limit(100)
    .execute();
  return rows.map((m) => ({ channel: m.channel, to: m.recipient, subject: m.subject, body: m.body, createdAt: m.createdAt.toISOString() }));
}
