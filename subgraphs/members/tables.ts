import type { Table } from '../kernel/tables.ts';
import type { ApiKey } from './entities/api-key.ts';
import type { Company, StorefrontDomain } from './entities/company.ts';
import type { Customer } from './entities/customer.ts';
import type { LoginLink } from './entities/login-link.ts';
import type { OtpChallenge } from './entities/otp-challenge.ts';
import type { Session } from './entities/session.ts';
import type { SignupRequest } from './entities/signup-request.ts';

/** The members subgraph's tables, for `ctx.query` (kernel/tables.ts). */
declare module '../kernel/tables.ts' {
  interface Tables {
    'members.api_key': Table<typeof ApiKey>;
    'members.company': Table<typeof Company>;
    'members.storefront_domain': Table<typeof StorefrontDomain>;
    'members.customer': Table<typeof Customer>;
    'members.login_link': Table<typeof LoginLink>;
    'members.otp_challenge': Table<typeof OtpChallenge>;
    'members.session': Table<typeof Session>;
    'members.signup_request': Table<typeof SignupRequest>;
  }
}
