/**
 * The same data on every side, through the public API only: a company signed up with the
 * organisation flow, 2 staff members, a service category, 20 services (both staff, the category),
 * a content category and 20 published posts in it.
 */
export interface Seeded {
  companyId: string;
  apiKey: string;
}

export const SERVICES = 20;
export const POSTS = 20;

/** A GraphQL answer over HTTP. */
export interface GraphqlAnswer<T> {
  data: T;
  errors?: unknown[];
}

/**
 * A JSON call to a bench server, answering with `T`; anything but a 2xx throws. A call refused with
 * ECONNRESET is made once more: after a long pause (a large seed) the pooled connection it took may
 * be the very one the server was closing as idle (keepAliveTimeout), before the request reached it.
 */
export function caller(base: string) {
  return async <T>(path: string, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<T> => {
    const request = () =>
      fetch(base + path, {
        method: init.body ? 'POST' : 'GET',
        headers: { 'content-type': 'application/json', ...init.headers },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
    const res = await request().catch((error: { cause?: { code?: string } }) => {
      if (error?.cause?.code !== 'ECONNRESET') throw error;
      return request();
    });
    const json = (await res.json()) as T;
    if (!res.ok) throw new Error(`seed ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** A company through the organisation signup, its code read from the development outbox. */
export async function signUp(base: string, label: string): Promise<Seeded> {
  const call = caller(base);
  const email = `bench-${label}-${Date.now()}@example.test`;
  const signup = await call<{ data: { requestId: string } }>('/v6/dev/signup', {
    body: { email, organisationName: `Bench ${label}`, industry: 'salon', country: 'DE' },
  });
  let code: string | undefined;
  for (let i = 0; i < 100 && !code; i++) {
    const outbox = await call<{ data: { items: { body?: string }[] } }>(`/dev/outbox?to=${encodeURIComponent(email)}`);
    code = /(\d{6})/.exec(outbox.data.items[0]?.body ?? '')?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  if (!code) throw new Error(`seed: no sign-up code reached ${email}`);
  const { apiKey, companyId } = (await call<{ data: Seeded }>('/v6/dev/verify', { body: { requestId: signup.data.requestId, code } })).data;
  return { apiKey, companyId };
}

export async function seed(base: string, label: string): Promise<Seeded> {
  const call = caller(base);
  const { apiKey, companyId } = await signUp(base, label);

  const gql = async <T>(query: string, variables: Record<string, unknown> = {}) => {
    const json = await call<GraphqlAnswer<T>>('/graphql', { body: { query, variables }, headers: { authorization: `Bearer ${apiKey}` } });
    if (json.errors) throw new Error(`seed: ${JSON.stringify(json.errors)}`);
    return json.data;
  };
  const staffIds: string[] = [];
  for (const name of ['Ana', 'Ben'])
    staffIds.push(
      (await gql<{ createStaffMember: { id: string } }>('mutation($n: String!) { createStaffMember(input: { name: $n }) { id } }', { n: name }))
        .createStaffMember.id,
    );
  const categoryId = (await gql<{ createServiceCategory: { id: string } }>('mutation { createServiceCategory(input: { name: "Hair" }) { id } }'))
    .createServiceCategory.id;
  for (let i = 0; i < SERVICES; i++) {
    await gql(
      'mutation($n: String!, $s: [ID!], $c: ID) { createService(input: { name: $n, durationMinutes: 30, price: "20", capacity: 1, staffIds: $s, categoryId: $c, minimumNoticeMinutes: 0 }) { id } }',
      { n: `Service ${i}`, s: staffIds, c: categoryId },
    );
  }
  const postCategoryId = (await gql<{ createContentCategory: { id: string } }>('mutation { createContentCategory(input: { name: "News" }) { id } }'))
    .createContentCategory.id;
  for (let i = 0; i < POSTS; i++) {
    await gql(
      'mutation($t: String!, $c: ID) { createPost(input: { title: $t, status: published, categoryId: $c, blocks: [{ type: paragraph, data: { text: "Hello" } }] }) { id } }',
      {
        t: `Post ${i}`,
        c: postCategoryId,
      },
    );
  }
  return { companyId, apiKey };
}
