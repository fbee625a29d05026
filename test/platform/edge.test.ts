import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { graphql, http, uniqueEmail } from '../support/client.ts';
import { bearer, signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';

const P = '/v6/customer-portal';
const MB = 1024 * 1024;

/** JSON text of an object nested `depth` levels: {"a":{"a":…}} (too deep for JSON.stringify to write). */
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** A raw request, for bodies fetch will not send as they are (chunked, a lying Content-Length). */
async function raw(
  path: string,
  headers: Record<string, string>,
  chunks: (string | Buffer)[],
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const { url } = await testServer();
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    // The server may answer and close before the whole body is sent: the answer is what counts.
    req.on('error', (error) => reject(error));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

/** A request written on a socket as given (HTTP/1.0: the answer unchunked): a Host header no HTTP client would send. */
async function onSocket(path: string, host: string): Promise<{ status: number; body: string }> {
  const { url } = await testServer();
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.0\r\nHost: ${host}\r\n\r\n`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c) => (text += c));
    socket.on('error', reject);
    socket.on('end', () => resolve({ status: Number(text.split(' ')[1]), body: text.slice(text.indexOf('\r\n\r\n') + 4) }));
  });
}

describe('the edge: request ids, body limits, media types', () => {
  it('refuses a Host header that makes no URL with 400 naming it, on every interface', async () => {
    for (const host of ['a b', '[::1', 'shop^example.test']) {
      const rest = await onSocket(`${P}/services`, host);
      expect(rest.status, host).toBe(400);
      expect(rest.body).toContain('"field":"Host"');
      expect(rest.body).not.toContain('TypeError');
      const other = await onSocket('/no/such/page', host);
      expect(other.status, host).toBe(400);
      const gql = await onSocket('/graphql?query=%7B__typename%7D', host);
      expect(gql.status, host).toBe(400);
      expect(JSON.parse(gql.body).errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'Host' });
    }
    // A usual one, with a port or an IPv6 address, is served.
    expect((await onSocket(`${P}/services`, 'localhost:4000')).status).not.toBe(400);
    expect((await onSocket('/healthz', '[::1]:4000')).status).toBe(200);
  });

  it('gives every answer an X-Request-Id, keeps a sane one the client sent, and names it in error bodies', async () => {
    const fresh = await http('/healthz');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const mine = await http(`${P}/services?limit=abc`, { headers: { 'x-request-id': 'client-123.abc' } });
    expect(mine.headers.get('x-request-id')).toBe('client-123.abc');
    expect(mine.body.error.requestId).toBe('client-123.abc');
    // An id that could forge log lines is replaced.
    const forged = await http('/healthz', { headers: { 'x-request-id': 'a b\tc' } });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const gql = await graphql('{ nope }', {}, { 'x-request-id': 'gql-1' });
    expect(gql.headers.get('x-request-id')).toBe('gql-1');
    expect(gql.body.errors![0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', requestId: 'gql-1' });
    const company = await signupCompany('Request Ids');
    const merchant = await mcpClient(company.apiKey);
    const error = await toolError(merchant, 'create_post', { title: 5 });
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'title' } });
    expect((error as any).requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a body over the limit with 413 before reading it, declared or streamed, on every interface', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(MB + 10) });
    const declared = await http(`${P}/contact`, { raw: big });
    expect(declared.status).toBe(413);
    expect(declared.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(JSON.stringify(declared.body).length).toBeLessThan(1000);
    const gql = await http('/graphql', { raw: JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(MB + 10) } }) });
    expect(gql.status).toBe(413);
    expect(gql.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    const mcp = await http('/mcp', { raw: big, headers: { accept: 'application/json, text/event-stream' } });
    expect(mcp.status).toBe(413);
    // Chunked, without a length: refused as soon as it passes the limit.
    const chunk = Buffer.alloc(256 * 1024, 'x');
    const streamed = await raw(`${P}/contact`, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [
      '{"name":"',
      chunk,
      chunk,
      chunk,
      chunk,
      chunk,
      '"}',
    ]);
    expect(streamed.status).toBe(413);
    // Just under the limit is read and answered on its merits.
    const under = await http(`${P}/contact`, { raw: JSON.stringify({ name: 'x'.repeat(MB - 100) }) });
    expect(under.status).toBe(400);
    expect(under.body.error.code).toBe('BAD_USER_INPUT');
  });

  it('refuses bodies that are not JSON with 415, form-encoded GraphQL mutations included', async () => {
    const text = await http(`${P}/contact`, { raw: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const form = await http('/graphql', { raw: 'query=mutation%20%7B%20__typename%20%7D', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    const multipart = await http('/graphql', { raw: '--x\r\n\r\n--x--', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(multipart.status).toBe(415);
    const mcp = await http('/mcp', { raw: '{}', headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' } });
    expect(mcp.status).toBe(415);
    // JSON with a charset is JSON.
    const ok = await http('/graphql', { raw: JSON.stringify({ query: '{ __typename }' }), headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(ok.status).toBe(200);
  });
});

describe('input the interfaces refuse in REST words', () => {
  it('refuses JSON nested deeper than 32 levels on REST, GraphQL and MCP, naming the field', async () => {
    const company = await signupCompany('Deep Input');
    const h = { 'x-company-id': company.companyId };
    const rest = await http(`${P}/auth/register`, { raw: `{"name":"Deep","email":"${uniqueEmail()}","attributes":${nested(5000)}}`, headers: h });
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: expect.stringMatching(/^attributes(\.a)+$/) } });
    const query = 'mutation($input: RegisterCustomerInput!) { registerCustomer(input: $input) { token } }';
    const gql = await http('/graphql', {
      raw: `{"query":${JSON.stringify(query)},"variables":{"input":{"name":"Deep","attributes":${nested(5000)}}}}`,
      headers: h,
    });
    expect(gql.status).toBe(400);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: expect.stringMatching(/^input\.attributes/) });
    const merchant = await mcpClient(company.apiKey);
    const tool = await toolError(merchant, 'create_post', { title: 'Deep', blocks: [{ type: 'paragraph', data: JSON.parse(nested(200)) }] });
    expect(tool).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: expect.stringMatching(/^blocks\[0\]\.data/) } });
  });

  it('answers a value that is not the JSON object a field wants with 400 naming it, on both REST and GraphQL', async () => {
    const company = await signupCompany('Object Fields');
    const h = { 'x-company-id': company.companyId };
    const rest = await http(`${P}/auth/register`, { body: { name: 'Obj', email: uniqueEmail(), attributes: 'abc' }, headers: h });
    expect(rest.status).toBe(400);
    expect(rest.body.error).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'attributes: must be a JSON object',
      details: { field: 'attributes' },
      requestId: expect.any(String),
    });
    const gql = await graphql(
      'mutation($input: RegisterCustomerInput!) { registerCustomer(input: $input) { token } }',
      { input: { name: 'Obj', attributes: 'abc' } },
      h,
    );
    expect(gql.status).toBe(400);
    expect(gql.body.errors![0]).toMatchObject({ message: 'attributes: must be a JSON object', extensions: { code: 'BAD_USER_INPUT', field: 'attributes' } });
    // The router's own coercion says it the same way, without repeating the value.
    const limit = await graphql('query($l: Int) { services(limit: $l) { items { id } } }', { l: 'x'.repeat(5000) }, h);
    expect(limit.status).toBe(400);
    expect(limit.body.errors![0]).toMatchObject({ message: 'l: must be an integer', extensions: { code: 'BAD_USER_INPUT', field: 'l' } });
    expect(JSON.stringify(limit.body).length).toBeLessThan(500);
    const merchant = await mcpClient(company.apiKey);
    const survey = await callTool(merchant, 'create_survey', { title: 'Poll', questions: [{ type: 'text', label: 'Why?' }], status: 'published' });
    for (const body of [{ answers: 'abc' }, { answers: {}, metadata: 5 }]) {
      const res = await http(`${P}/surveys/${survey.id}/responses`, { body, headers: h });
      expect(res.status).toBe(400);
      expect(res.body.error.details.field).toBe(Object.keys(body).at(-1));
    }
  });

  it('refuses control characters in any text, on every interface, naming the field', async () => {
    const company = await signupCompany('Control Characters');
    const merchant = await mcpClient(company.apiKey);
    expect(await toolError(merchant, 'create_post', { title: 'T', type: 'a\u0000b' })).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'type' } });
    expect(await toolError(merchant, 'list_posts', { type: 'a\u0000b' })).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'type' } });
    expect(await toolError(merchant, 'create_post', { title: 'bell\u0007' })).toMatchObject({ details: { field: 'title' } });
    // Tabs and line breaks are text.
    expect((await callTool(merchant, 'create_post', { title: 'Two\tcolumns', excerpt: 'line\r\nbreak' })).title).toBe('Two\tcolumns');
    const h = { 'x-company-id': company.companyId };
    const rest = await http(`${P}/contact`, { body: { name: 'X\u001b[31m', email: uniqueEmail(), message: 'hi' }, headers: h });
    expect(rest.body.error).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'name' } });
    const query = await http(`${P}/cms/posts?search=a%07b`, { headers: h });
    expect(query.body.error).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'search' } });
    const variables = await graphql('query($t: String) { posts(type: $t) { items { id } } }', { t: 'a\u0000b' }, bearer(company.apiKey));
    expect(variables.status).toBe(400);
    expect(variables.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 't' });
    const literal = await graphql('{ posts(type: "a\\u0000b") { items { id } } }', {}, bearer(company.apiKey));
    expect(literal.status).toBe(400);
    expect(literal.body.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'query' });
  });

  it('words REST errors for REST clients: no GraphQL variables, types or echoed values', async () => {
    const company = await signupCompany('Rest Words');
    const h = { 'x-company-id': company.companyId };
    const limit = await http(`${P}/services?limit=abc`, { headers: h });
    expect(limit.status).toBe(400);
    expect(limit.body.error).toMatchObject({ code: 'BAD_USER_INPUT', message: 'limit: must be an integer', details: { field: 'limit' } });
    const unknownQuery = await http(`${P}/services?limt=5`, { headers: h });
    expect(unknownQuery.body.error).toMatchObject({ message: 'limt: is not a known query parameter', details: { field: 'limt' } });
    const unknownField = await http(`${P}/contact`, { body: { name: 'X', email: uniqueEmail(), message: 'hi', colour: 'red' }, headers: h });
    expect(unknownField.body.error).toMatchObject({ code: 'BAD_USER_INPUT', message: 'colour: is not a known field', details: { field: 'colour' } });
    const missing = await http(`${P}/contact`, { body: { email: uniqueEmail(), message: 'hi' }, headers: h });
    expect(missing.body.error).toMatchObject({ message: 'name: is required', details: { field: 'name' } });
    const slots = await http(`${P}/services/${crypto.randomUUID()}/slots`, { headers: h });
    expect(slots.status).toBe(400);
    expect(slots.body.error.details.field).toBe('date');
    const huge = await http(`${P}/services?limit=${'9'.repeat(500)}`, { headers: h });
    expect(huge.body.error).toMatchObject({ message: 'limit: must be an integer', details: { field: 'limit' } });
    // Past Node's 16 KB of request head: refused before any of our code runs.
    expect((await http(`${P}/services?search=${'a'.repeat(20_000)}`, { headers: h })).status).toBe(431);
    const wrongType = await http(`${P}/contact`, { body: { name: { first: 'x'.repeat(500_000) }, email: uniqueEmail(), message: 'hi' }, headers: h });
    expect(wrongType.body.error).toMatchObject({ message: 'name: must be a string', details: { field: 'name' } });
    for (const res of [limit, unknownQuery, unknownField, missing, slots, huge, wrongType]) {
      const text = JSON.stringify(res.body);
      expect(text.length).toBeLessThan(1000);
      expect(text).not.toMatch(/\$input|Variable "|cannot represent|is not defined by type|Input\b|originalError/);
    }
  });
});
