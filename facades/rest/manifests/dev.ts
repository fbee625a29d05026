import type { RestRoute } from './types.ts';

/** REST fallbacks of the organisation signup tools. */
export const devRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/dev/signup',
    field: 'Mutation.registerOrganisationRequest',
    tag: 'Organisation signup',
    summary: 'Request an email code to create an organisation',
  },
  {
    method: 'POST',
    path: '/dev/verify',
    field: 'Mutation.registerOrganisationVerify',
    tag: 'Organisation signup',
    summary: 'Verify the code: returns apiKey, companyId and loginUrl',
  },
];
