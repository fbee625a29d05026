/** How the router resolves members' entities referenced from other subgraphs (`__resolveReference`). */
import type { ReferenceResolver } from '../kernel/federation.ts';
import { customerNode } from './resolvers/customer.types.ts';
import { referencedCustomer } from './services/customers.ts';

export const membersReferences: Record<string, ReferenceResolver> = {
  Customer: async (ref: { id: string }, ctx) => {
    const customer = await referencedCustomer(ctx, ref.id);
    return customer && customerNode(customer);
  },
};
