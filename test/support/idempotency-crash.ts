import { expect } from 'vitest';
import { eventually } from './eventually.ts';

/** What the crash tests need of a company made on a server of their own. */
export interface CrashCompany {
  companyId: string;
  apiKey: string;
}

/** A request that makes a guarded write on the server at `base` (which dies before answering it). */
export type Crashing = (base: string, company: CrashCompany) => Promise<unknown>;

/** A plain HTTP call to the server at `base`; JSON in and out. */
export async function call(
  base: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** A company through the real organisation signup on the server at `base` (its code read from /dev/outbox). */
export async function signupAt(base: string): Promise<CrashCompany> {
  const email = `crash.owner.${process.pid}.${Date.now()}@example.test`;
  const request = await call(base, '/v6/dev/signup', { body: { email, organisationName: 'Crash Studio', industry: 'salon', country: 'DE' } });
  expect(request.status).toBe(200);
  // The code is delivered by the queue's worker: read the outbox until it is there.
  const code = await eventually(
    async () => {
      const { body } = await call(base, `/dev/outbox?to=${encodeURIComponent(email)}`);
      return /\b(\d{6})\b/.exec(body.data.items[0].body)![1];
    },
    { tries: 300 },
  );
  const verify = await call(base, '/v6/dev/verify', { body: { requestId: request.body.data.requestId, code } });
  expect(verify.status).toBe(200);
  return verify.body.data;
}

/** The company's contact inquiries from `email`, as its merchant lists them. */
export async function contactInquiries(base: string, company: CrashCompany, email: string): Promise<{ id: string }[]> {
  const { body } = await call(base, '/graphql', {
    body: { query: 'query($email: String) { contactInquiries(search: $email, limit: 100) { items { id } } }', variables: { email } },
    headers: { authorization: `Bearer ${company.apiKey}` },
  });
  return body.data.contactInquiries.items;
}

/** The company's staff members called `name`, as its merchant lists them. */
export async function staffNamed(base: string, company: CrashCompany, name: string): Promise<{ id: string }[]> {
  const { body } = await call(base, '/graphql', {
    body: { query: 'query($name: String) { staffMembers(search: $name, limit: 100) { items { id name } } }', variables: { name } },
    headers: { authorization: `Bearer ${company.apiKey}` },
  });
  return (body.data.staffMembers.items as { id: string; name: string }[]).filter((r) => r.name === name).map(({ id }) => ({ id }));
}
