/**
 * What the providers' webhooks bring in (services/webhooks.ts verified it), handled by a job per
 * delivery, each event in its own transaction:
 * - a receipt moves one of our messages forward (`sent` → `delivered` → `read`, or `failed`),
 *   never back, and is published as `messaging.message.status`;
 * - a customer's message finds or makes the contact for its address, opens (or reopens) the
 *   conversation, and is added to it once (the provider's id is unique: a redelivered webhook adds
 *   nothing); STOP and START set the contact's consent on the channel. It is published as
 *   `messaging.message.received` (members makes a customer of an unknown sender).
 */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { HARD_BOUNCE_CODES as TWILIO_BOUNCES } from '../../kernel/messaging/twilio.ts';
import { HARD_BOUNCE_CODES as WHATSAPP_BOUNCES } from '../../kernel/messaging/whatsapp.ts';
import type { DeliveryStatus } from '../../kernel/messaging/providers.ts';
import type { MessageStatus } from '../../kernel/outbox/index.ts';
import type { ConversationStatus } from '../entities/conversation.ts';
import { openConversation } from './contacts.ts';
import { announce } from './delivery.ts';

export const INBOUND_QUEUE = 'messaging.inbound';

export type InboundEvent =
  | { kind: 'message'; channel: 'sms' | 'whatsapp'; from: string; providerMessageId: string; text: string; at: string; name: string | null }
  | {
      kind: 'status';
      channel: 'sms' | 'whatsapp';
      providerMessageId: string;
      status: DeliveryStatus;
      at: string;
      error: string | null;
      errorCode: string | null;
    };

/** Opt-out and opt-in words, as carriers and WhatsApp's guidance read them (the whole message, any case). */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE']);
const START_WORDS = new Set(['START', 'UNSTOP', 'YES', 'OPTIN']);

export async function handleInbound(ctx: RequestContext, events: readonly InboundEvent[]): Promise<void> {
  for (const event of events) await ctx.transaction((tx) => (event.kind === 'status' ? applyReceipt(tx, event) : receive(tx, event)));
}

/** Where each status stands; a receipt applies only if it moves the message forward. */
const RANK: Partial<Record<MessageStatus, number>> = { queued: 0, sending: 1, sent: 2, delivered: 3, read: 4 };

async function applyReceipt(tx: RequestContext, event: Extract<InboundEvent, { kind: 'status' }>) {
  const message = await tx.query
    .selectFrom('kernel.outbox_message')
    .select(['id', 'companyId', 'channel', 'customerId', 'campaignId', 'status', 'attempts'])
    .where('companyId', '=', tx.companyId)
    .where('channel', '=', event.channel)
    .where('providerMessageId', '=', event.providerMessageId)
    .forUpdate()
    .executeTakeFirst();
  if (!message) return;
  const at = new Date(event.at);
  const current = RANK[message.status];
  const messages = tx.query.updateTable('kernel.outbox_message').where('id', '=', message.id);
  if (event.status === 'failed') {
    // A message the provider took can still fail on the way (undelivered); a delivered one cannot.
    if (message.status !== 'sending' && message.status !== 'sent') return;
    const code = event.errorCode === null ? NaN : Number(event.errorCode);
    const hardBounce = (event.channel === 'sms' ? TWILIO_BOUNCES : WHATSAPP_BOUNCES).has(code);
    await messages.set({ status: 'failed', failedAt: at, lastError: event.error, errorCode: event.errorCode, hardBounce, updatedAt: at }).execute();
    announce(tx, message, 'failed', { attempts: message.attempts, error: event.error, errorCode: event.errorCode, hardBounce });
    return;
  }
  if (current === undefined || RANK[event.status]! <= current) return;
  await messages
    .set((eb) => ({
      status: event.status,
      sentAt: eb.fn.coalesce('sentAt', eb.val(at)),
      ...(event.status !== 'sent' && { deliveredAt: eb.fn.coalesce('deliveredAt', eb.val(at)) }),
      ...(event.status === 'read' && { readAt: at }),
      updatedAt: at,
    }))
    .execute();
  announce(tx, message, event.status, {});
}

async function receive(tx: RequestContext, event: Extract<InboundEvent, { kind: 'message' }>) {
  const at = new Date(event.at);
  const known = await tx.query.selectFrom('messaging.customer_projection').select('customerId').where('phone', '=', event.from).limit(1).executeTakeFirst();
  const { contact, conversationId } = await openConversation(tx, {
    channel: event.channel,
    address: event.from,
    customerId: known?.customerId ?? null,
    name: event.name,
    at,
  });
  const added = await tx.query
    .insertInto('messaging.conversation_message')
    .values({
      id: newId(),
      conversationId,
      kind: 'incoming',
      text: event.text,
      providerMessageId: event.providerMessageId,
      senderKind: 'customer',
      senderId: contact.customerId,
      createdAt: at,
    })
    .onConflict((oc) => oc.columns(['companyId', 'providerMessageId']).doNothing())
    .returning('id')
    .executeTakeFirst();
  // A redelivered webhook: the message is there already.
  if (!added) return;
  await tx.query
    .updateTable('messaging.conversation')
    .set((eb) => ({
      status: eb.case().when('status', 'in', ['resolved', 'snoozed']).then(eb.val<ConversationStatus>('open')).else(eb.ref('status')).end(),
      snoozedUntil: null,
      waitingSince: eb.fn.coalesce('waitingSince', eb.val(at)),
      lastMessageAt: eb.fn('greatest', ['lastMessageAt', eb.val(at)]),
      lastIncomingAt: eb.fn('greatest', ['lastIncomingAt', eb.val(at)]),
      unreadCount: eb('unreadCount', '+', 1),
      updatedAt: at,
    }))
    .where('id', '=', conversationId)
    .execute();
  const word = event.text.trim().toUpperCase();
  const consent = STOP_WORDS.has(word) ? 'revoked' : START_WORDS.has(word) ? 'granted' : null;
  if (consent) {
    await tx.query
      .updateTable('messaging.contact')
      .set({ optedOutAt: consent === 'revoked' ? at : null, updatedAt: at })
      .where('id', '=', contact.id)
      .execute();
    tx.publish('messaging.consent.changed', {
      contactId: contact.id,
      customerId: contact.customerId,
      channel: event.channel,
      address: event.from,
      consent,
      at: event.at,
    });
  }
  tx.publish('messaging.message.received', {
    messageId: added.id,
    conversationId,
    contactId: contact.id,
    customerId: contact.customerId,
    channel: event.channel,
    from: event.from,
    name: event.name,
    text: event.text,
    at: event.at,
  });
}
