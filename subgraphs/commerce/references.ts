/** How the router resolves commerce's entities referenced from other subgraphs (`__resolveReference`). */
import type { ReferenceResolver } from '../kernel/federation.ts';

export const commerceReferences: Record<string, ReferenceResolver> = {};
