/**
 * The tenant filter every tenant entity declares. It is on by default and takes the caller's
 * company from `em.setFilterParams('tenant', …)` (see RequestContext.authenticate); a query made
 * without a company fails instead of returning every tenant's rows. Code that must cross tenants
 * says so locally with `{ filters: { tenant: false } }`.
 */
export const tenantFilter = {
  tenant: {
    name: 'tenant',
    cond: (args: { companyId: string }) => ({ companyId: args.companyId }),
    default: true,
    args: true,
  },
};
