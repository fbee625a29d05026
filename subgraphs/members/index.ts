import type { SubgraphModule } from '../kernel/module.ts';
import { buildFederatedSchema } from '../kernel/federation.ts';
import { ApiKey } from './entities/api-key.ts';
import { Company, StorefrontDomain } from './entities/company.ts';
import { Customer } from './entities/customer.ts';
import { LoginLink } from './entities/login-link.ts';
import { OtpChallenge } from './entities/otp-challenge.ts';
import { Session } from './entities/session.ts';
import { SignupRequest } from './entities/signup-request.ts';
import { members0001 } from './migrations/0001_members.ts';
import { members0002 } from './migrations/0002_api_key_scopes.ts';
// Resolvers register their root fields as their modules load: this order is the order of the
// Query and Mutation fields in the printed SDL (schema/members.graphql).
import { AuditResolver } from './resolvers/audit.resolver.ts';
import { LegacyUsageResolver } from './resolvers/legacy-usage.resolver.ts';
import { CompanyResolver } from './resolvers/company.resolver.ts';
import { ApiKeyResolver } from './resolvers/api-key.resolver.ts';
import { CustomerResolver } from './resolvers/customer.resolver.ts';
import { ViewerResolver } from './resolvers/viewer.resolver.ts';
import { OrganisationSignupResolver } from './resolvers/signup-request.resolver.ts';
import { LoginLinkResolver } from './resolvers/login-link.resolver.ts';
import { membersConstraints } from './constraints.ts';
import { membersReferences } from './references.ts';
import { seedDemoCompany } from './services/demo.ts';
import { membersSubscriptions } from './subscriptions.ts';

/** Tenants, customers and their sessions, merchant API keys, organisation signup. */
export const members: SubgraphModule = {
  name: 'members',
  schema: 'members',
  entities: [Company, StorefrontDomain, Customer, OtpChallenge, Session, ApiKey, SignupRequest, LoginLink],
  migrations: [members0001, members0002],
  buildSchema: () =>
    buildFederatedSchema({
      name: 'members',
      resolvers: [
        AuditResolver,
        LegacyUsageResolver,
        CompanyResolver,
        ApiKeyResolver,
        CustomerResolver,
        ViewerResolver,
        OrganisationSignupResolver,
        LoginLinkResolver,
      ],
      references: membersReferences,
    }),
  subscriptions: membersSubscriptions,
  constraints: membersConstraints,
  onStart: seedDemoCompany,
};
