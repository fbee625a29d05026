/** How the router resolves loyalty's entities referenced from other subgraphs (`__resolveReference`). */
import type { ReferenceResolver } from '../kernel/federation.ts';

export const loyaltyReferences: Record<string, ReferenceResolver> = {
  // members' Customer, extended here with its points: the id is all loyalty needs.
  Customer: (ref: { id: string }) => ({ id: ref.id }),
};
