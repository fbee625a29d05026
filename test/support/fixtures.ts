import { http, lastCode, uniqueEmail } from './client.ts';

export interface Company {
  companyId: string;
  apiKey: string;
  loginUrl: string;
  email: string;
}

/** A fresh company through the real organisation signup (REST fallback + emailed code). */
export async function signupCompany(name = 'Test Studio'): Promise<Company> {
  const email = uniqueEmail('owner');
  const since = Date.now();
  const request = await http('/v6/dev/signup', { body: { email, organisationName: name, industry: 'salon', country: 'DE' } });
  if (request.status !== 200) throw new Error(`signup failed: ${JSON.stringify(request.body)}`);
  const code = await lastCode(email, since);
  const verify = await http('/v6/dev/verify', { body: { requestId: request.body.data.requestId, code } });
  if (verify.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verify.body)}`);
  return { ...verify.body.data, email };
}

/** A signed-in customer of a company, through OTP by email. */
export async function signInCustomer(companyId: string, email = uniqueEmail('customer')): Promise<{ token: string; customerId: string; email: string }> {
  const since = Date.now();
  const headers = { 'x-company-id': companyId };
  const sent = await http('/v6/customer-portal/auth/otp', { body: { email }, headers });
  if (sent.status !== 200) throw new Error(`otp failed: ${JSON.stringify(sent.body)}`);
  const code = await lastCode(email, since);
  const verified = await http('/v6/customer-portal/auth/otp/verify', { body: { email, code }, headers });
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
  return { token: verified.body.data.token, customerId: verified.body.data.customer.id, email };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
