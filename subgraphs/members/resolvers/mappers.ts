import type { Company, StorefrontDomain } from '../entities/company.ts';
import type { Customer } from '../entities/customer.ts';
import type { CustomerNode, StorefrontDomainNode, TenantContext } from './types.ts';

/** Entity rows → GraphQL shapes, in one place so every surface names things alike. */
export function customerNode(c: Customer): CustomerNode {
  return {
    id: c.id,
    companyId: c.companyId,
    name: c.name,
    lastName: c.lastName ?? null,
    email: c.email ?? null,
    phone: c.phone ?? null,
    source: c.source ?? null,
    attributes: c.attributes ?? null,
    emailVerified: !!c.emailVerifiedAt,
    phoneVerified: !!c.phoneVerifiedAt,
    createdAt: c.createdAt,
  };
}

export const domainNode = (d: StorefrontDomain): StorefrontDomainNode => ({ id: d.id, domain: d.host, companyId: d.companyId, createdAt: d.createdAt });

export const tenantContext = (c: Company): TenantContext => ({
  companyId: c.id,
  name: c.name,
  slug: c.slug,
  timeZone: c.timeZone,
  currency: c.currency,
  loginChannel: c.loginChannel as TenantContext['loginChannel'],
});
