import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp, type App } from '../../router/app.ts';
import { TestClock } from '../../subgraphs/kernel/clock.ts';
import { loadConfig } from '../../subgraphs/kernel/config.ts';
import { createDatabase } from '../support/database.ts';
import { freePort, startServerProcess, waitReady } from '../support/local-servers.ts';
import { call, contactInquiries, signupAt, staffNamed, type CrashCompany, type Crashing } from '../support/idempotency-crash.ts';

/**
 * An Idempotency-Key's record commits with the write it guards. The server runs as its own process
 * with IDEMPOTENCY_TEST_CRASH_AFTER_COMMIT, which makes it SIGKILL itself right after a guarded
 * write commits and before the key's answer is stored; each interface (REST, MCP, GraphQL) crashes
 * it once. Then a server on the same database, its clock past the time a claim counts as
 * abandoned, gets the same requests with the same keys: none runs again (the rows are counted),
 * each is told the first attempt was carried out.
 */
describe('Idempotency-Key across a crash between the commit and the stored answer', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-idem-crash-'));
  const database: { url?: string; drop?: () => Promise<void> } = {};
  const keys = { rest: `rest-${Date.now()}`, mcp: `mcp-${Date.now()}`, graphql: `graphql-${Date.now()}` };
  const contact = { name: 'Crash Carla', email: `crash.rest.${process.pid}@example.test`, message: 'Call me back' };
  const graphqlContact = { name: 'Crash Gus', email: `crash.graphql.${process.pid}@example.test`, message: 'Write to me' };
  const staff = { name: `Crash Stan ${process.pid}` };
  const submit = 'mutation Submit($input: ContactInput!) { submitContactInquiry(input: $input) { id } }';
  let company: CrashCompany;
  /** When each interface's first attempt ended with its process: its claim was made just before. */
  const crashedAt = { rest: 0, mcp: 0, graphql: 0 };
  let app: App | undefined;
  // One address for every server: a key belongs to the host it was sent to, as to the credential.
  let port = 0;
  let base = '';

  /** The server process with the crash hook, until the guarded write of `crash` kills it; when it died. */
  async function crashWith(crash: Crashing): Promise<number> {
    const server = startServerProcess(dataDir, port, { IDEMPOTENCY_TEST_CRASH_AFTER_COMMIT: '1', ...(database.url ? { DATABASE_URL: database.url } : {}) });
    try {
      await waitReady(port).catch((error) => {
        throw new Error(`${error.message}: ${server.output().slice(-2000)}`);
      });
      company ??= await signupAt(base);
      await expect(crash(base, company)).rejects.toThrow();
      await server.exited;
      expect(server.child.signalCode).toBe('SIGKILL');
      return Date.now();
    } finally {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await server.exited;
    }
  }

  beforeAll(async () => {
    const url = inject('databaseUrl');
    if (url) Object.assign(database, await createDatabase(url, 'idemcrash'));
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    crashedAt.rest = await crashWith((at, c) =>
      fetch(`${at}/v6/customer-portal/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-company-id': c.companyId, 'idempotency-key': keys.rest },
        body: JSON.stringify(contact),
      }),
    );
    crashedAt.mcp = await crashWith(async (at, c) => {
      const client = new Client({ name: 'crash-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${at}/mcp`), { requestInit: { headers: { authorization: `Bearer ${c.apiKey}` } } }));
      return client.callTool({ name: 'create_staff_member', arguments: { ...staff, idempotencyKey: keys.mcp } });
    });
    crashedAt.graphql = await crashWith((at, c) =>
      fetch(`${at}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-company-id': c.companyId, 'idempotency-key': keys.graphql },
        body: JSON.stringify({ query: submit, variables: { input: graphqlContact } }),
      }),
    );
    // The next server on the same data, in this process so that its clock can be set: createApp
    // takes none, so its runtime's is replaced (every request reads it through the runtime).
    const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'development', PORT: String(port), ...(database.url ? { DATABASE_URL: database.url } : {}) });
    app = await createApp(config);
    await new Promise<void>((r) => app!.server.listen(port, '127.0.0.1', r));
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await database.drop?.();
  });

  const merchant = () => ({ authorization: `Bearer ${company.apiKey}` });
  const restRetry = () =>
    call(base, '/v6/customer-portal/contact', { body: contact, headers: { 'x-company-id': company.companyId, 'idempotency-key': keys.rest } });
  const graphqlRetry = () =>
    call(base, '/graphql', {
      body: { query: submit, variables: { input: graphqlContact } },
      headers: { 'x-company-id': company.companyId, 'idempotency-key': keys.graphql },
    });
  async function mcpRetry() {
    const client = new Client({ name: 'crash-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: merchant() } }));
    try {
      const result = await client.callTool({ name: 'create_staff_member', arguments: { ...staff, idempotencyKey: keys.mcp } });
      expect(result.isError).toBe(true);
      return JSON.parse((result.content as { text: string }[])[0].text).error as { code: string; message: string; details?: Record<string, unknown> };
    } finally {
      await client.close();
    }
  }

  it('counts a key of a dead process as in use until it is abandoned', async () => {
    // Just after each crash the first attempt may still be running, as far as a server can tell.
    const at = (time: number) => void (app!.platform.runtime.clock = new TestClock(time));
    at(crashedAt.rest);
    expect((await restRetry()).body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    at(crashedAt.mcp);
    expect((await mcpRetry()).code).toBe('IDEMPOTENCY_KEY_IN_USE');
    at(crashedAt.graphql);
    expect((await graphqlRetry()).body.errors[0].extensions.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(await contactInquiries(base, company, contact.email)).toHaveLength(1);
  });

  describe('once abandoned', () => {
    beforeAll(() => {
      app!.platform.runtime.clock = new TestClock(Math.max(...Object.values(crashedAt)) + 6 * 60_000);
    });

    it('REST: does not write again and answers 409 naming what was written', async () => {
      const [inquiry] = await contactInquiries(base, company, contact.email);
      for (let i = 0; i < 2; i++) {
        const retry = await restRetry();
        expect(retry.status).toBe(409);
        expect(retry.body).toMatchObject({ success: false, error: { code: 'CONFLICT', details: { resultId: inquiry.id, committedAt: expect.any(String) } } });
        expect(retry.body.error.message).toMatch(/carried out .*answer was lost; it is not run again/);
      }
      expect(await contactInquiries(base, company, contact.email)).toEqual([inquiry]);
      // The same request under a new key is a new request.
      const fresh = await call(base, '/v6/customer-portal/contact', {
        body: contact,
        headers: { 'x-company-id': company.companyId, 'idempotency-key': `${keys.rest}-2` },
      });
      expect(fresh.status).toBe(201);
      expect(await contactInquiries(base, company, contact.email)).toHaveLength(2);
    });

    it('MCP: does not write again and answers CONFLICT naming what was written', async () => {
      const [written] = await staffNamed(base, company, staff.name);
      expect(await mcpRetry()).toMatchObject({ code: 'CONFLICT', details: { resultId: written.id } });
      expect(await staffNamed(base, company, staff.name)).toEqual([written]);
    });

    it('GraphQL: does not write again and answers 409 naming what was written', async () => {
      const [inquiry] = await contactInquiries(base, company, graphqlContact.email);
      const retry = await graphqlRetry();
      expect(retry.status).toBe(409);
      expect(retry.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', resultId: inquiry.id });
      expect(await contactInquiries(base, company, graphqlContact.email)).toEqual([inquiry]);
    });
  });
});
