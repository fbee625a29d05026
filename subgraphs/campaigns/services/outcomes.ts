/**
 * What became of each campaign message, as messaging's `messaging.message.status` events tell it:
 * the delivery moves on (sent, retried later, failed; delivered and read receipts), a hard bounce
 * suppresses the address for the channel, 100 failed attempts in a row pause the campaign, and the
 * last outcome of a campaign whose deliveries are all handed over makes it SENT.
 */
import type { RequestContext } from '../../kernel/context.ts';
import type { ConsentChanged, MessageStatusChanged } from '../../messaging/events.ts';
import { finishIfDone } from './sending.ts';

export const PAUSE_AFTER_FAILURES = 100;

export async function recordOutcome(tx: RequestContext, event: MessageStatusChanged): Promise<void> {
  const { campaignId, customerId } = event;
  if (!campaignId || !customerId) return;
  // The campaign's row first: outcomes of one campaign and its batch jobs take turns.
  const campaign = await tx.query.selectFrom('campaigns.campaign').select(['id', 'channel']).where('id', '=', campaignId).forUpdate().executeTakeFirst();
  if (!campaign) return;
  const at = new Date(event.at);
  const delivery = tx.query.updateTable('campaigns.delivery').where('campaignId', '=', campaignId).where('customerId', '=', customerId);
  const attempts = event.attempts ?? undefined;
  switch (event.status) {
    case 'sent':
      await delivery.set({ status: 'SENT', sentAt: at, attempts, lastError: null, leaseUntil: null }).where('status', '<>', 'FAILED').execute();
      await tx.query
        .updateTable('campaigns.campaign')
        .set({ consecutiveFailures: 0 })
        .where('id', '=', campaignId)
        .where('consecutiveFailures', '>', 0)
        .execute();
      break;
    case 'delivered':
      await delivery.set({ deliveredAt: at }).where('deliveredAt', 'is', null).execute();
      return;
    case 'read':
      await delivery
        .set((eb) => ({ readAt: at, deliveredAt: eb.fn.coalesce('deliveredAt', eb.val(at)) }))
        .where('readAt', 'is', null)
        .execute();
      return;
    case 'queued':
    case 'failed': {
      const final = event.status === 'failed';
      const set = final
        ? { status: 'FAILED' as const, attempts, lastError: event.error }
        : { attempts, lastError: event.error, nextAttemptAt: new Date(event.retryAt!) };
      await (final ? delivery : delivery.where('status', '=', 'SENDING')).set(set).execute();
      if (event.hardBounce) {
        await tx.query
          .insertInto('campaigns.suppression')
          .values({ customerId, channel: campaign.channel, reason: 'HARD_BOUNCE', detail: event.error, createdAt: at })
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      const run = await tx.query
        .updateTable('campaigns.campaign')
        .set((eb) => ({ consecutiveFailures: eb('consecutiveFailures', '+', 1) }))
        .where('id', '=', campaignId)
        .returning('consecutiveFailures')
        .executeTakeFirstOrThrow();
      if (Number(run.consecutiveFailures) >= PAUSE_AFTER_FAILURES) {
        await tx.query
          .updateTable('campaigns.campaign')
          .set({ status: 'PAUSED', runner: null, statusReason: `Paused after ${PAUSE_AFTER_FAILURES} failed deliveries in a row; last: ${event.error}` })
          .where('id', '=', campaignId)
          .where('status', '=', 'SENDING')
          .execute();
      }
      if (!final) return;
      break;
    }
    default:
      return;
  }
  await finishIfDone(tx, campaignId);
}

/** STOP suppresses the customer on the channel as an unsubscribe does; START lifts that (a hard bounce stays). */
export async function recordConsent(tx: RequestContext, event: ConsentChanged): Promise<void> {
  if (!event.customerId) return;
  if (event.consent === 'revoked') {
    await tx.query
      .insertInto('campaigns.suppression')
      .values({ customerId: event.customerId, channel: event.channel, reason: 'UNSUBSCRIBED', detail: 'Replied STOP', createdAt: new Date(event.at) })
      .onConflict((oc) => oc.doNothing())
      .execute();
  } else {
    await tx.query
      .deleteFrom('campaigns.suppression')
      .where('customerId', '=', event.customerId)
      .where('channel', '=', event.channel)
      .where('reason', '=', 'UNSUBSCRIBED')
      .execute();
  }
}
