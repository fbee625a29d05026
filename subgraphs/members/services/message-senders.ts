/**
 * A message from someone the company does not know yet (messaging's `messaging.message.received`
 * with no customer): they become a customer, by their phone number and the name their WhatsApp
 * profile gives, as a sign-up makes one, and `members.customer.created` tells the other subgraphs
 * (messaging links the conversation). A customer who already has the number (the event raced
 * their sign-up) is announced again instead, so messaging links them too.
 */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import type { MessageReceived } from '../../messaging/events.ts';
import { Customer } from '../entities/customer.ts';
import { customerFacts } from '../events.ts';

export async function customerFromMessage(tx: RequestContext, message: MessageReceived): Promise<void> {
  if (message.customerId) return;
  const existing = await tx.em.findOne(Customer, { phone: message.from });
  if (existing) {
    tx.publish('members.customer.updated', customerFacts(existing));
    return;
  }
  const customer = tx.em.create(Customer, { id: newId(), name: message.name ?? message.from, phone: message.from, source: message.channel });
  tx.publish('members.customer.created', customerFacts(customer));
}
