/**
 * A paid registration waits in PENDING_PAYMENT, holding its seats, while commerce collects the
 * money: commerce's events settle it (subscriptions.ts). Content never reads commerce's tables,
 * nor commerce content's. Both moves are conditional updates, so a repeated or late event changes
 * nothing.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { enqueueMessage } from '../../kernel/outbox/index.ts';
import { tenantSettings } from '../../kernel/tenant.ts';

interface Settled {
  id: string;
  email: string | null;
  phone: string | null;
  quantity: number;
  title: string;
}

async function settle(tx: RequestContext, registrationId: string, to: 'CONFIRMED' | 'CANCELLED'): Promise<Settled | undefined> {
  return tx.query
    .updateTable('content.event_registration as r')
    .from('content.event as e')
    .set({ status: to, updatedAt: tx.now() })
    .where('r.id', '=', registrationId)
    .where('r.status', '=', 'PENDING_PAYMENT')
    .whereRef('e.id', '=', 'r.eventId')
    .returning(['r.id', 'r.email', 'r.phone', 'r.quantity', 'e.title'])
    .executeTakeFirst();
}

function tell(tx: RequestContext, row: Settled, subject: string, body: string) {
  const to = row.email ?? row.phone;
  if (to) enqueueMessage(tx, { companyId: tx.companyId, channel: row.email ? 'email' : 'sms', to, subject, body });
}

/** `commerce.payment.succeeded` for a registration: it is confirmed, and its holder told. */
export async function confirmPaidRegistration(tx: RequestContext, registrationId: string): Promise<void> {
  const row = await settle(tx, registrationId, 'CONFIRMED');
  if (!row) return;
  const { name } = await tenantSettings(tx);
  tell(
    tx,
    row,
    `${name}: you are registered for ${row.title}`,
    `Your payment was received: you are registered for ${row.title} (${row.quantity} place(s)). Reference: ${row.id}.`,
  );
}

/** `commerce.registration.payment-expired`: the registration is cancelled and its seats are free again. */
export async function cancelUnpaidRegistration(tx: RequestContext, registrationId: string): Promise<void> {
  const row = await settle(tx, registrationId, 'CANCELLED');
  if (!row) return;
  const { name } = await tenantSettings(tx);
  tell(
    tx,
    row,
    `${name}: registration for ${row.title} expired`,
    `Your registration for ${row.title} was not paid in time and has been released. Reference: ${row.id}.`,
  );
}
