import { http, lastCode, uniqueEmail } from './client.ts';
import { eventually } from './eventually.ts';

export interface Company {
  companyId: string;
  apiKey: string;
  loginUrl: string;
  email: string;
}

/** A fresh company through the real organisation signup (REST fallback + emailed code), on the test server or the one at `base`. */
export async function signupCompany(name = 'Test Studio', base?: string): Promise<Company> {
  const email = uniqueEmail('owner');
  const since = Date.now();
  const request = await http('/v6/dev/signup', { body: { email, organisationName: name, industry: 'salon', country: 'DE' }, base });
  if (request.status !== 200) throw new Error(`signup failed: ${JSON.stringify(request.body)}`);
  const code = await lastCode(email, since, base);
  const verify = await http('/v6/dev/verify', { body: { requestId: request.body.data.requestId, code }, base });
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

/**
 * Puts a company on the Starter plan through the platform's checkout, as a merchant would: the
 * sandbox's `sandbox_success` method pays at once and its signed webhook activates the plan.
 */
export async function upgradeToStarter(apiKey: string, base?: string): Promise<void> {
  const checkout = await http('/v6/merchant/plan/checkout', { body: { plan: 'starter', paymentMethodId: 'sandbox_success' }, headers: bearer(apiKey), base });
  if (checkout.status !== 200) throw new Error(`checkout failed: ${JSON.stringify(checkout.body)}`);
  await eventually(
    async () => {
      const plan = await http('/v6/merchant/plan', { headers: bearer(apiKey), base });
      if (plan.body.data?.plan.id !== 'starter') throw new Error(`still on ${JSON.stringify(plan.body.data?.plan.id ?? plan.body)}`);
    },
    { tries: 200, intervalMs: 100 },
  );
}
