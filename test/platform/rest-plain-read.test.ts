import { request, type IncomingMessage } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../support/client.ts';
import { bearer, signInCustomer, signupCompany, type Company } from '../support/fixtures.ts';
import { testServer, type TestServer } from '../support/server.ts';

/**
 * The plain path of the REST GET routes (facades/rest/plain-read.ts): a GET is answered without
 * SOFA's router. Its answers must be SOFA's, byte for byte: each request is sent as it is (plain
 * path) and again with `Content-Length: 0`, which the plain path leaves to SOFA (a GET with a body
 * may carry variables there) and which changes nothing in the answer; `plainReads` tells which
 * path answered.
 */

let server: TestServer;
let company: Company;
let other: Company;
let serviceId: string;
let otherServiceId: string;

const createService = async (c: Company, name: string) =>
  (
    await graphql<{ createService: { id: string } }>(
      'mutation($n: String!) { createService(input: { name: $n, durationMinutes: 30, price: "25.5" }) { id } }',
      { n: name },
      bearer(c.apiKey),
    )
  ).body.data!.createService.id;

beforeAll(async () => {
  server = await testServer();
  company = await signupCompany('Plain Read Studio');
  other = await signupCompany('Plain Read Other');
  serviceId = await createService(company, 'Plain Cut');
  await createService(company, 'Plain Colour');
  otherServiceId = await createService(other, 'Other Cut');
  await graphql(
    'mutation { createPost(input: { title: "Plain news", status: published, blocks: [{ type: paragraph, data: { text: "Hi" } }] }) { id } }',
    {},
    bearer(company.apiKey),
  );
});

/** A GET through node:http, which sends the headers as given (fetch drops a GET's Content-Length). */
async function get(path: string, headers: Record<string, string> = {}) {
  const before = server.app.rest.stats.plainReads;
  const res = await new Promise<IncomingMessage>((resolve, reject) =>
    request(server.url + path, { headers }, resolve)
      .on('error', reject)
      .end(),
  );
  let text = '';
  for await (const chunk of res) text += chunk;
  const header = (name: string) => (res.headers[name] as string | undefined) ?? null;
  return {
    status: res.statusCode,
    type: header('content-type'),
    retryAfter: header('retry-after'),
    text,
    plain: server.app.rest.stats.plainReads - before === 1,
  };
}

/** The GET answered by the plain path and by SOFA; the answer. */
async function both(path: string, headers: Record<string, string> = {}) {
  // One request id for both, so that an error's (which names it) can be compared.
  const withId = { 'x-request-id': `plain-read-${Math.random()}`, ...headers };
  const plain = await get(path, withId);
  const sofa = await get(path, { ...withId, 'content-length': '0' });
  expect(plain.plain).toBe(true);
  expect(sofa.plain).toBe(false);
  expect({ status: plain.status, type: plain.type, retryAfter: plain.retryAfter }).toEqual({
    status: sofa.status,
    type: sofa.type,
    retryAfter: sofa.retryAfter,
  });
  expect(plain.text).toBe(sofa.text);
  return { status: plain.status, body: JSON.parse(plain.text) };
}

describe('REST plain GET path', () => {
  it('answers lists, a search, pages and one item as SOFA does', async () => {
    const tenant = { 'x-company-id': company.companyId };
    const list = await both('/v6/customer-portal/services?limit=5', tenant);
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((s: { name: string }) => s.name).sort()).toEqual(['Plain Colour', 'Plain Cut']);
    expect(list.body.data.pagination).toMatchObject({ limit: 5, total: 2 });
    const search = await both('/v6/customer-portal/services?search=Colour&page=1&limit=1', tenant);
    expect(search.body.data.items.map((s: { name: string }) => s.name)).toEqual(['Plain Colour']);
    const one = await both(`/v6/customer-portal/services/${serviceId}`, tenant);
    expect(one.body.data).toMatchObject({ id: serviceId, name: 'Plain Cut', price: { amount: '25.50' } });
    const staff = await both(`/v6/customer-portal/services/${serviceId}/staff?limit=3`, tenant);
    expect(staff.body.data.items).toEqual([]);
    const posts = await both('/v6/customer-portal/cms/posts?search=Plain%20news', tenant);
    expect(posts.body.data.items.map((p: { title: string }) => p.title)).toEqual(['Plain news']);
  });

  it('answers errors as SOFA does: not found, another tenant, no session, with the request id', async () => {
    const tenant = { 'x-company-id': company.companyId };
    const missing = await both('/v6/customer-portal/services/00000000-0000-7000-8000-000000000000', { ...tenant, 'x-request-id': 'plain-read-404' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', requestId: 'plain-read-404' });
    // Another company's service is not found, the same way.
    expect((await both(`/v6/customer-portal/services/${otherServiceId}`, tenant)).status).toBe(404);
    // A customer's own list without a session: refused before its input is read, by the facade's
    // authentication (facades/rest/credentials.ts), which the plain path leaves it to.
    const bookings = await get('/v6/customer-portal/bookings?status=confirmed', tenant);
    expect({ plain: bookings.plain, status: bookings.status }).toEqual({ plain: false, status: 401 });
  });

  it("reads a signed-in customer's list with an enum filter as SOFA does", async () => {
    const { token } = await signInCustomer(company.companyId);
    const headers = { 'x-company-id': company.companyId, ...bearer(token) };
    const bookings = await both('/v6/customer-portal/bookings?status=confirmed&limit=2', headers);
    expect(bookings.status).toBe(200);
    expect(bookings.body.data.items).toEqual([]);
  });

  it('leaves to SOFA what SOFA might read otherwise, which then answers as before', async () => {
    const tenant = { 'x-company-id': company.companyId };
    // An empty value (no variable at SOFA), a trailing slash, an encoded path, a value that is not UTF-8.
    for (const path of [
      '/v6/customer-portal/services?search=',
      '/v6/customer-portal/services/',
      `/v6/customer-portal/services/${serviceId.replace('-', '%2D')}`,
      '/v6/customer-portal/services?search=%FF',
    ]) {
      const answer = await get(path, tenant);
      expect(answer.plain, path).toBe(false);
      expect(answer.status, path).toBeLessThan(500);
    }
    // A refused value and an unknown route are SOFA's facade's to word.
    const bad = await get('/v6/customer-portal/services?limit=many', tenant);
    expect({ plain: bad.plain, status: bad.status }).toEqual({ plain: false, status: 400 });
    expect(JSON.parse(bad.text).error.details.field).toBe('limit');
    const long = await get(`/v6/customer-portal/services/${'x'.repeat(1001)}`, tenant);
    expect({ plain: long.plain, status: long.status, field: JSON.parse(long.text).error.details.field }).toEqual({ plain: false, status: 400, field: 'id' });
    const unknown = await get('/v6/customer-portal/nothing-here', tenant);
    expect({ plain: unknown.plain, status: unknown.status }).toEqual({ plain: false, status: 404 });
  });
});
