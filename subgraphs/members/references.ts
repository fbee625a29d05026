/** How the router resolves members' entities referenced from other subgraphs (`__resolveReference`). */
import type { ReferenceResolver } from '../kernel/federation.ts';
import type { RowOf } from '../kernel/tables.ts';
import { customerNode } from './resolvers/customer.types.ts';

export const membersReferences: Record<string, ReferenceResolver> = {
  // Merchants see their customers; a customer only themself.
  Customer: async (ref: { id: string }, ctx) => {
    const p = ctx.principal;
    if (p.kind !== 'merchant' && !(p.kind === 'customer' && p.customerId === ref.id)) return null;
    const customer = (await ctx.find('members.customer', ref.id)) as RowOf<'members.customer'> | null;
    return customer && customerNode(customer);
  },
};
