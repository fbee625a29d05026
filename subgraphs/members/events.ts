import type { Customer } from './entities/customer.ts';

/** What other subgraphs may know of a customer: contact facts, never the row. */
export interface CustomerFacts {
  customerId: string;
  name: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  emailVerified: boolean;
  phoneVerified: boolean;
}

declare module '../kernel/events.ts' {
  interface DomainEvents {
    'members.customer.created': CustomerFacts;
    'members.customer.updated': CustomerFacts;
    'members.customer.deleted': { customerId: string };
  }
}

export const customerFacts = (c: Customer): CustomerFacts => ({
  customerId: c.id,
  name: c.name,
  lastName: c.lastName ?? null,
  email: c.email ?? null,
  phone: c.phone ?? null,
  emailVerified: !!c.emailVerifiedAt,
  phoneVerified: !!c.phoneVerifiedAt,
});
