import type { Subscriptions } from '../kernel/events.ts';
import type { CustomerFacts } from '../members/events.ts';
import type { RequestContext } from '../kernel/context.ts';
import { customers } from './services/customers.ts';

/**
 * Members' customers, for the projection (services/customers.ts) and to link the contacts that
 * wrote before they were known: a contact whose address is the customer's phone or email becomes
 * theirs, with its conversation.
 */
async function linkContacts(tx: RequestContext, facts: CustomerFacts) {
  const addresses = [facts.phone, facts.email].filter((a): a is string => !!a);
  if (!addresses.length) return;
  const linked = await tx.query
    .updateTable('messaging.contact')
    .set({ customerId: facts.customerId, updatedAt: tx.now() })
    .where('address', 'in', addresses)
    .where('customerId', 'is', null)
    .returning('id')
    .execute();
  if (linked.length)
    await tx.query
      .updateTable('messaging.conversation')
      .set({ customerId: facts.customerId })
      .where(
        'contactId',
        'in',
        linked.map((c) => c.id),
      )
      .execute();
}

/** Other subgraphs' events messaging handles. */
export const messagingSubscriptions: Subscriptions = {
  ...customers.subscriptions,
  'members.customer.created': async (tx, event) => {
    await customers.subscriptions['members.customer.created']!(tx, event);
    await linkContacts(tx, event.payload);
  },
  'members.customer.updated': async (tx, event) => {
    await customers.subscriptions['members.customer.updated']!(tx, event);
    await linkContacts(tx, event.payload);
  },
  // An erased customer's contacts go, and their conversations with them.
  'members.customer.deleted': async (tx, event) => {
    await customers.subscriptions['members.customer.deleted']!(tx, event);
    await tx.query.deleteFrom('messaging.contact').where('customerId', '=', event.payload.customerId.toLowerCase()).execute();
  },
};
