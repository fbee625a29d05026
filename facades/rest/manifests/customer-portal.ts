import type { RestRoute } from './types.ts';

const base = '/customer-portal';

/** The customer portal v6 routes served so far (the contract's groups arrive with their subgraphs). */
export const customerPortalRoutes: RestRoute[] = [
  { method: 'GET', path: `${base}/auth/login-channel`, field: 'Query.loginChannel', auth: 'public', tag: 'Member session', summary: 'The login channel configured for the tenant' },
  { method: 'POST', path: `${base}/auth/otp`, field: 'Mutation.requestCustomerOtp', auth: 'public', tag: 'Member session', summary: 'Send a one-time sign-in code by email, SMS or WhatsApp' },
  { method: 'POST', path: `${base}/auth/otp/verify`, field: 'Mutation.verifyCustomerOtp', auth: 'public', tag: 'Member session', summary: 'Verify a code and receive a customer token' },
  { method: 'POST', path: `${base}/auth/register`, field: 'Mutation.registerCustomer', auth: 'public', tag: 'Member session', status: 201, summary: 'Register a member (data.member) and sign in (data.token)' },
  { method: 'POST', path: `${base}/auth/validate-token`, field: 'Query.validateCustomerToken', auth: 'customer', tag: 'Member session', summary: 'Check the customer token' },
  { method: 'POST', path: `${base}/auth/refresh`, field: 'Mutation.refreshCustomerToken', auth: 'customer', tag: 'Member session', summary: 'Rotate the session: the old token ends, a new one is returned' },
  { method: 'POST', path: `${base}/auth/logout`, field: 'Mutation.logoutCustomer', auth: 'customer', tag: 'Member session', summary: 'End the session' },
  { method: 'GET', path: `${base}/auth/registration-form`, field: 'Query.registrationForm', auth: 'public', tag: 'Member session', summary: 'The tenant-specific registration fields' },
  { method: 'GET', path: `${base}/storefront/resolve-domain`, field: 'Query.resolveStorefrontDomain', auth: 'none', tag: 'Storefront', summary: 'Resolve a storefront host name to its tenant context' },
];
