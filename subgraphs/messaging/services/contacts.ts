/** A customer's address on a channel and their one conversation there, found or made: what a message in or out starts from. */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import type { Channel } from '../../kernel/outbox/index.ts';

export interface Address {
  channel: Channel;
  address: string;
  /** Members' customer, when known; a contact already linked keeps its own. */
  customerId: string | null;
  /** The name the provider gives (a WhatsApp profile); a contact keeps the one it has when none. */
  name: string | null;
  at: Date;
}

export async function openConversation(tx: RequestContext, a: Address) {
  const contact = await tx.query
    .insertInto('messaging.contact')
    .values({ id: newId(), channel: a.channel, address: a.address, customerId: a.customerId, name: a.name, createdAt: a.at, updatedAt: a.at })
    .onConflict((oc) =>
      oc.columns(['companyId', 'channel', 'address']).doUpdateSet((eb) => ({
        customerId: eb.fn.coalesce('messaging.contact.customerId', eb.ref('excluded.customerId')),
        name: eb.fn.coalesce('excluded.name', eb.ref('messaging.contact.name')),
        updatedAt: eb.ref('excluded.updatedAt'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  const conversation = await tx.query
    .insertInto('messaging.conversation')
    .values({
      id: newId(),
      contactId: contact.id,
      channel: a.channel,
      customerId: contact.customerId,
      status: 'open',
      priority: 'none',
      lastMessageAt: a.at,
      unreadCount: 0,
      createdAt: a.at,
      updatedAt: a.at,
    })
    .onConflict((oc) => oc.column('contactId').doUpdateSet((eb) => ({ customerId: eb.ref('excluded.customerId') })))
    .returning('id')
    .executeTakeFirstOrThrow();
  return { contact, conversationId: conversation.id };
}
