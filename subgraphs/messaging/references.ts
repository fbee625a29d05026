/** How the router resolves messaging's entities referenced from other subgraphs: none are. */
import type { ReferenceResolver } from '../kernel/federation.ts';

export const messagingReferences: Record<string, ReferenceResolver> = {};
