import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { Company, StorefrontDomain } from './entities/company.ts';
import { Customer, OtpChallenge, Session } from './entities/customer.ts';
import { ApiKey, LoginLink, SignupRequest } from './entities/merchant.ts';
import { members0001 } from './migrations/0001_members.ts';
import { AuditResolver } from './resolvers/audit.resolver.ts';
import { CompanyResolver } from './resolvers/company.resolver.ts';
import { CustomerAuthResolver } from './resolvers/customer-auth.resolver.ts';
import { customerNode } from './resolvers/mappers.ts';
import { OrganisationResolver } from './resolvers/organisation.resolver.ts';
import { membersConstraints } from './constraints.ts';
import { seedDemoCompany } from './services/demo.ts';

/** Tenants, customers and their sessions, merchant API keys, organisation signup. */
export const members: SubgraphModule = {
  name: 'members',
  schema: 'members',
  entities: [Company, StorefrontDomain, Customer, OtpChallenge, Session, ApiKey, SignupRequest, LoginLink],
  migrations: [members0001],
  buildSchema: () =>
    buildFederatedSchema({
      resolvers: [CustomerAuthResolver, OrganisationResolver, CompanyResolver, AuditResolver],
      references: {
        // Merchants see their customers; a customer only themself.
        Customer: async (ref: { id: string }, ctx) => {
          const p = ctx.principal;
          if (p.kind !== 'merchant' && !(p.kind === 'customer' && p.customerId === ref.id)) return null;
          const customer = await ctx.byId(Customer, ref.id);
          return customer && customerNode(customer);
        },
      },
    }),
  constraints: membersConstraints,
  onStart: seedDemoCompany,
};
