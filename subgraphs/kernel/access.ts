import { Authorized, type AuthChecker } from 'type-graphql';
import type { RequestContext } from './context.ts';
import { badInput, forbidden, unauthenticated } from './errors.ts';

/**
 * What a resolver requires of its caller, stated with one decorator:
 * - anyone: no tenant needed (organisation signup, storefront domain resolution)
 * - public: a tenant (X-Company-Id or a storefront domain)
 * - optionalCustomer: a tenant, and a customer token when one is given
 * - customer: a signed-in customer
 * - merchant: an API key or a merchant session
 */
export type Access = 'anyone' | 'public' | 'optionalCustomer' | 'customer' | 'merchant';

export const Requires = (access: Access) => Authorized(access);

export const authChecker: AuthChecker<RequestContext, Access> = async ({ context }, roles) => {
  const principal = await context.authenticate();
  const access = roles[0] ?? 'merchant';
  switch (access) {
    case 'anyone':
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
      return true;
  }
};
