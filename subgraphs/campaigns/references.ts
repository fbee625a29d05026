/** How the router resolves campaigns' entities referenced from other subgraphs: none are. */
import type { ReferenceResolver } from '../kernel/federation.ts';

export const campaignsReferences: Record<string, ReferenceResolver> = {};
