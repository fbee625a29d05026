/**
 * Delivering the messages of the one log (kernel.outbox_message), exactly once as far as a crash
 * allows. A delivery job names the messages of one company it hands over. The worker takes each
 * just before sending it (`queued` and due, or `sending` whose holder's lease ran out: it died),
 * sends it through the company's provider for the channel, and records the outcome at once, in
 * its own transaction with the `messaging.message.status` event. A message a crash interrupted
 * between the provider's answer and the record is sent again under the same idempotency key (the
 * email's Message-ID). A failure the provider calls permanent, or the fifth, is final; another is
 * retried after 1 min, 5 min, 30 min and 2 h by a job of its own.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { ProviderFailure } from '../../kernel/messaging/providers.ts';
import { MESSAGE_QUEUE } from '../../kernel/jobs/queues.ts';
import type { MessageStatus } from '../../kernel/outbox/index.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { providersOf } from './providers.ts';

export const MAX_ATTEMPTS = 5;
/** Waits before attempts 2 to 5. */
const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000];
/** Messages in flight at once within a job. */
const PARALLEL = 8;

type Message = RowOf<'kernel.outbox_message'>;

/** How long a worker holds a message it is sending: longer than a provider call may take (15 s). */
const LEASE_MS = 20_000;

/**
 * Works one delivery job: `{ companyId, ids }`. Each message is taken just before it is sent, so a
 * job run twice at once (the queue thought the first run dead) never sends one message twice.
 */
export async function deliverQueued(ctx: RequestContext, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const providerFor = await providersOf(ctx);
  const queue = [...ids];
  let skipped = false;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) {
        const m = await claim(ctx, id);
        if (!m) {
          skipped = true;
          continue;
        }
        try {
          const provider = providerFor(m.channel);
          const { providerMessageId } = await provider.send({
            to: m.recipient,
            text: m.body,
            template: m.template ?? undefined,
            subject: m.subject ?? undefined,
            html: m.html ?? undefined,
            extras: m.extras ?? undefined,
            idempotencyKey: m.idempotencyKey ?? m.id,
          });
          await recordSent(ctx, m, provider.name, providerMessageId);
        } catch (error) {
          await recordFailure(ctx, m, error instanceof ProviderFailure ? error : new ProviderFailure(String((error as Error)?.message ?? error), false));
        }
      }
    }),
  );
  if (skipped) await followHeld(ctx, ids, ctx.now());
}

/** Takes one message for sending: queued and due, or held by a worker whose lease ran out (it died). */
function claim(ctx: RequestContext, id: string): Promise<Message | undefined> {
  const now = ctx.now();
  return ctx.query
    .updateTable('kernel.outbox_message')
    .set((eb) => ({ status: 'sending', leaseUntil: new Date(now.getTime() + LEASE_MS), attempts: eb('attempts', '+', 1), updatedAt: now }))
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'queued'), eb.or([eb('nextAttemptAt', 'is', null), eb('nextAttemptAt', '<=', now)])]),
        eb.and([eb('status', '=', 'sending'), eb('leaseUntil', '<=', now)]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
}

/**
 * Messages of the job that another worker holds (its lease not yet out) or whose retry is not yet
 * due: a job follows them at that time, so none is left behind when this job's own run was a
 * repeat (its process died and the queue ran it again).
 */
async function followHeld(ctx: RequestContext, ids: string[], now: Date) {
  const later = await ctx.query
    .selectFrom('kernel.outbox_message')
    .select(['id', 'status', 'leaseUntil', 'nextAttemptAt'])
    .where('id', 'in', ids)
    .where('status', 'in', ['queued', 'sending'])
    .execute();
  const held = later.filter((m) => (m.status === 'sending' ? m.leaseUntil! > now : m.nextAttemptAt && m.nextAttemptAt > now));
  if (!held.length) return;
  const at = new Date(Math.max(...held.map((m) => (m.status === 'sending' ? m.leaseUntil! : m.nextAttemptAt!).getTime())));
  await ctx.transaction(async (tx) => tx.runAt(MESSAGE_QUEUE, at, { companyId: ctx.principal.companyId, ids: held.map((m) => m.id) }));
}

async function recordSent(ctx: RequestContext, m: Message, provider: string, providerMessageId: string) {
  await ctx.transaction(async (tx) => {
    const now = tx.now();
    const done = await tx.query
      .updateTable('kernel.outbox_message')
      .set({
        status: 'sent',
        provider,
        providerMessageId,
        sentAt: now,
        leaseUntil: null,
        nextAttemptAt: null,
        lastError: null,
        errorCode: null,
        updatedAt: now,
      })
      .where('id', '=', m.id)
      .where('status', '=', 'sending')
      .returning('attempts')
      .executeTakeFirst();
    if (done) announce(tx, m, 'sent', { attempts: done.attempts });
  });
}

async function recordFailure(ctx: RequestContext, m: Message, failure: ProviderFailure) {
  const final = failure.permanent || m.attempts >= MAX_ATTEMPTS;
  const error = failure.message.slice(0, 500);
  await ctx.transaction(async (tx) => {
    const now = tx.now();
    const retryAt = final ? null : new Date(now.getTime() + BACKOFF_MS[Math.min(m.attempts, BACKOFF_MS.length) - 1]);
    const done = await tx.query
      .updateTable('kernel.outbox_message')
      .set({
        status: final ? 'failed' : 'queued',
        lastError: error,
        errorCode: failure.providerCode ?? null,
        hardBounce: failure.hardBounce,
        failedAt: final ? now : null,
        nextAttemptAt: retryAt,
        leaseUntil: null,
        updatedAt: now,
      })
      .where('id', '=', m.id)
      .where('status', '=', 'sending')
      .returning('attempts')
      .executeTakeFirst();
    if (!done) return;
    if (retryAt) tx.runAt(MESSAGE_QUEUE, retryAt, { companyId: m.companyId, ids: [m.id] });
    announce(tx, m, final ? 'failed' : 'queued', {
      attempts: done.attempts,
      error,
      errorCode: failure.providerCode ?? null,
      hardBounce: failure.hardBounce,
      retryAt: retryAt?.toISOString() ?? null,
    });
  });
}

/** The status event other subgraphs follow (campaigns' deliveries); the platform's own messages (no company) have no one to tell. */
export function announce(
  tx: RequestContext,
  m: Pick<Message, 'id' | 'companyId' | 'channel' | 'customerId' | 'campaignId'>,
  status: MessageStatus,
  facts: { attempts?: number; error?: string | null; errorCode?: string | null; hardBounce?: boolean; retryAt?: string | null },
) {
  if (!m.companyId) return;
  tx.publish('messaging.message.status', {
    messageId: m.id,
    channel: m.channel,
    customerId: m.customerId,
    campaignId: m.campaignId,
    status,
    at: tx.now().toISOString(),
    attempts: facts.attempts ?? null,
    error: facts.error ?? null,
    errorCode: facts.errorCode ?? null,
    hardBounce: facts.hardBounce ?? false,
    retryAt: facts.retryAt ?? null,
  });
}
