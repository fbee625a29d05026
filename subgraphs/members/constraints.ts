import type { ConstraintTable } from '../kernel/constraints.ts';

/** What members' unique constraints mean to a client. */
export const membersConstraints: ConstraintTable = {
  customer_company_email_uniq: { code: 'CONFLICT', field: 'email', message: 'A member with this email is already registered' },
  customer_company_phone_uniq: { code: 'CONFLICT', field: 'phone', message: 'A member with this phone is already registered' },
  storefront_domain_host_key: { code: 'CONFLICT', field: 'domain', message: 'This domain is already in use' },
};
