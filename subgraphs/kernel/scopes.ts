/**
 * What a credential may do: `<toolset>:read`, `<toolset>:write` (which implies read) or `*`. A
 * merchant's dashboard session has `*`; an API key has the scopes it was created with (`*` unless
 * narrowed). Every root field needs the scope of its toolset (kernel/access.ts): a query read, a
 * mutation write.
 */
import { TOOLSET_NAMES, type Toolset } from './toolsets.ts';

export type Scope = '*' | `${Toolset}:${'read' | 'write'}`;

export const ALL_SCOPES: readonly Scope[] = ['*', ...TOOLSET_NAMES.flatMap((t) => [`${t}:read`, `${t}:write`] as Scope[])];

export const scopeNeeded = (toolset: Toolset, writes: boolean): Scope => `${toolset}:${writes ? 'write' : 'read'}`;

/** Whether `scopes` grant `needed` (write implies read, `*` everything). */
export function grants(scopes: readonly string[], needed: Scope): boolean {
  if (scopes.includes('*') || scopes.includes(needed)) return true;
  return needed.endsWith(':read') && scopes.includes(needed.replace(/:read$/, ':write'));
}
