import { Authorized, UseMiddleware, type AuthChecker } from 'type-graphql';
import { auditMutations } from './audit.ts';
import type { RequestContext } from './context.ts';
import { AppError, badInput, forbidden, unauthenticated } from './errors.ts';
import { grants, scopeNeeded } from './scopes.ts';
import type { Toolset } from './toolsets.ts';

/**
 * What a root field requires of its caller, declared once with `@Requires(...)`:
 * - none: nobody in particular, no tenant (organisation signup, storefront domain resolution)
 * - public: a tenant (X-Company-Id or a storefront domain)
 * - optionalCustomer: a tenant, and a customer token when one is given
 * - customer: a signed-in customer
 * - merchant: an API key or a merchant session
 * - magic: a token in the path names the tenant and the caller (survey invitation links)
 * and the toolset it belongs to (kernel/toolsets.ts), which names the scopes a key needs for it.
 * The resolver guard, the REST routes' security and the MCP tools' visibility all read this.
 */
export const ACCESS_LEVELS = ['none', 'public', 'optionalCustomer', 'customer', 'merchant', 'magic'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** Root field name → its declared access and toolset, filled as resolver classes are defined. */
const declared = new Map<string, { access: Access; toolset: Toolset }>();

export const Requires =
  (access: Access, toolset: Toolset): MethodDecorator =>
  (target, key, descriptor) => {
    declared.set(String(key), { access, toolset });
    // Root fields only carry the audit middleware (it records mutations by merchants); a global
    // middleware would wrap every field of every list item.
    UseMiddleware(auditMutations)(target, key, descriptor);
    return Authorized(access)(target, key, descriptor);
  };

/** The declared access of a root field (`Query.services`, `Mutation.createBooking` or the bare name). */
export const accessOf = (field: string): Access => declarationOf(field).access;

/** The toolset of a root field. */
export const toolsetOf = (field: string): Toolset => declarationOf(field).toolset;

function declarationOf(field: string) {
  const name = field.replace(/^(Query|Mutation)\./, '');
  const declaration = declared.get(name);
  if (!declaration) throw new Error(`No access declared for ${field}: add @Requires(...) to its resolver`);
  return declaration;
}

export const authChecker: AuthChecker<RequestContext, Access> = async ({ context, info }, roles) => {
  const principal = await context.authenticate();
  const access = roles[0] ?? 'merchant';
  switch (access) {
    case 'none':
    case 'magic':
      return true;
    case 'public':
    case 'optionalCustomer':
      if (principal.kind === 'anonymous') throw principal.tenantError ?? badInput('X-Company-Id', 'a company id header or a storefront domain is required');
      return true;
    case 'customer':
      if (principal.kind !== 'customer') throw unauthenticated('A customer token is required');
      return true;
    case 'merchant':
      if (principal.kind === 'customer') throw forbidden('This operation needs a merchant API key or session');
      if (principal.kind !== 'merchant') throw unauthenticated('A merchant API key or session is required');
      // The key's scopes: a query of the field's toolset needs read, a mutation write. (The REST
      // routes' check before their inputs are read asks only for the kind of credential: no field.)
      if (info) requireScope(principal.scopes, info.fieldName, info.parentType.name === 'Mutation');
      return true;
  }
};

function requireScope(scopes: readonly string[], field: string, writes: boolean): void {
  const required = scopeNeeded(toolsetOf(field), writes);
  if (!grants(scopes, required)) throw new AppError('INSUFFICIENT_SCOPE', `This API key lacks the scope ${required}`, { required });
}
