/** How the router resolves content's entities referenced from other subgraphs: none yet (content declares no `@key` type). */
import type { ReferenceResolver } from '../kernel/federation.ts';

export const contentReferences: Record<string, ReferenceResolver> = {};
