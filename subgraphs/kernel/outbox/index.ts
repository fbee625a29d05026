/**
 * Handing a message over: every subgraph queues its outgoing messages here, in the transaction of
 * the change that causes them — the message's row in the one log (kernel.outbox_message) and its
 * delivery job, both gone if the transaction rolls back. Messaging works the job
 * (subgraphs/messaging/services/delivery.ts): it sends through the company's provider for the
 * channel and moves the status forward.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { newId } from '../ids.ts';
import { anyOf, systemQuery } from '../query.ts';
import { MESSAGE_QUEUE } from '../jobs/queues.ts';
import { OutboxMessage, type Channel, type MessageExtras, type MessageTemplate, type SenderKind } from './entity.ts';

export { OutboxMessage, type Channel, type MessageStatus } from './entity.ts';

export interface NewMessage {
  companyId: string | null;
  channel: Channel;
  to: string;
  subject?: string;
  /** The text: the whole message on SMS and WhatsApp, the plain part of an email. */
  body: string;
  html?: string;
  template?: MessageTemplate;
  extras?: MessageExtras;
  customerId?: string;
  campaignId?: string;
  sender?: { kind: SenderKind; id?: string };
  /** The same key twice in a company is one message. */
  idempotencyKey?: string;
  /** It carries a secret (a sign-in code, a personal link): listed without its text. */
  confidential?: boolean;
}

const row = (message: NewMessage) => ({
  id: newId(),
  companyId: message.companyId,
  channel: message.channel,
  recipient: message.to,
  subject: message.subject ?? null,
  body: message.body,
  html: message.html ?? null,
  template: message.template ?? null,
  extras: message.extras ?? null,
  customerId: message.customerId ?? null,
  campaignId: message.campaignId ?? null,
  senderKind: message.sender?.kind ?? 'system',
  senderId: message.sender?.id ?? null,
  idempotencyKey: message.idempotencyKey ?? null,
  confidential: message.confidential ?? false,
});

/** Who sends a message on behalf of the caller: an agent's key, a staff member's session, or the platform. */
export function senderOf(ctx: RequestContext): NonNullable<NewMessage['sender']> {
  const p = ctx.principal;
  if (p.kind !== 'merchant') return { kind: 'system' };
  return { kind: p.via === 'api_key' ? 'agent' : 'staff', id: p.credentialId };
}

/** A JSON column's value as the drivers take it from a builder's insert: text (an array would otherwise become a PostgreSQL array). */
export const asJson = <T>(value: T | undefined): T | null => (value === undefined ? null : (JSON.stringify(value) as unknown as T));

/** Queues one message with the transaction `tx` is in; answers its id in the log. */
export function enqueueMessage(tx: RequestContext, message: NewMessage): string {
  const values = row(message);
  tx.em.create(OutboxMessage, { ...values, status: 'queued', attempts: 0 });
  tx.runAt(MESSAGE_QUEUE, null, { companyId: message.companyId, ids: [values.id] });
  return values.id;
}

/**
 * Queues many messages of one company with one delivery job (a campaign's batch). A message whose
 * idempotency key is already in the log is not written again; answers the ids written.
 */
export async function enqueueMessages(tx: RequestContext, messages: NewMessage[]): Promise<string[]> {
  if (!messages.length) return [];
  const written = await tx.query
    .insertInto('kernel.outbox_message')
    .values(messages.map((m) => ({ ...row(m), template: asJson(m.template), extras: asJson(m.extras), createdAt: new Date() })))
    .onConflict((oc) => oc.columns(['companyId', 'idempotencyKey']).doNothing())
    .returning('id')
    .execute();
  const ids = written.map((w) => w.id);
  if (ids.length) tx.runAt(MESSAGE_QUEUE, null, { companyId: tx.companyId, ids });
  return ids;
}

/** Withdraws a campaign's messages not yet taken by a worker (the campaign was cancelled). */
export async function withdrawMessages(tx: RequestContext, campaignId: string): Promise<void> {
  const now = tx.now();
  await tx.query
    .updateTable('kernel.outbox_message')
    .set({ status: 'cancelled', updatedAt: now })
    .where('companyId', '=', tx.companyId!)
    .where('campaignId', '=', campaignId)
    .where('status', '=', 'queued')
    .execute();
}

/** Messages the provider took for an address in the last hour (development and tests only), newest first. */
export async function recentMessages(em: EntityManager, to: string) {
  const since = new Date(Date.now() - 60 * 60 * 1000);
  const rows = await systemQuery(em)
    .selectFrom('kernel.outbox_message')
    .select(['channel', 'recipient', 'subject', 'body', 'html', 'status', 'createdAt'])
    // Addresses are stored as normalised (emails lower-cased); accept the address as typed too.
    .where('recipient', '=', anyOf([...new Set([to, to.toLowerCase()])]))
    .where('status', 'in', ['sent', 'delivered', 'read'])
    .where('createdAt', '>=', since)
    .orderBy('createdAt', 'desc')
    .limit(100)
    .execute();
  return rows.map((m) => ({ channel: m.channel, to: m.recipient, subject: m.subject, body: m.body, status: m.status, createdAt: m.createdAt.toISOString() }));
}
