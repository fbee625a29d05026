import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp, type App } from '../../router/app.ts';
import { signupCompany } from '../support/fixtures.ts';
import { call, contactInquiries, staffNamed, type CrashCompany } from '../support/idempotency-crash.ts';
import { freePort } from '../support/local-servers.ts';
import { testServer } from '../support/server.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** A subgraph as its own process (as `npm run start:subgraph` runs one), with the crash hook; resolves once it listens. */
async function subgraphProcess(name: string, port: number, databaseUrl: string, jwtSecret: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    NODE_ENV: 'test',
    JWT_SECRET: jwtSecret,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'platform-idem-subgraph-')),
    OUTBOX_LOG: 'silent',
    IDEMPOTENCY_TEST_CRASH_AFTER_COMMIT: '1',
  };
  // Node itself with tsx's loader, so that the process that dies is the subgraph's.
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'router/subgraph-server.ts'), name], { cwd: ROOT, env });
  let output = '';
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      output += d;
      if (output.includes(`Subgraph ${name} on`)) resolve();
    });
    child.stderr!.on('data', (d) => (output += d));
    void exited.then(() => reject(new Error(`subgraph ${name} exited: ${output.slice(-2000)}`)));
  });
  return { child, exited };
}

/**
 * The distributed topology: the write commits in a subgraph process, which SIGKILLs itself right
 * after (IDEMPOTENCY_TEST_CRASH_AFTER_COMMIT), before the router has its answer to keep. The key's
 * claim reaches the subgraph in an internal header, and its transaction marked the key, so the
 * same request with the same key is not run again (the rows are counted): 409, naming what was
 * written. PostgreSQL only (subgraph processes share the database).
 */
describe.runIf(inject('databaseUrl'))('Idempotency-Key when the subgraph process dies after the commit (distributed)', () => {
  const ports = { content: 0, booking: 0 };
  let router: App;
  let url = '';
  let company: CrashCompany;
  let local = '';
  let config: Awaited<ReturnType<typeof testServer>>['config'];
  const running: Awaited<ReturnType<typeof subgraphProcess>>[] = [];

  beforeAll(async () => {
    ({ config, url: local } = await testServer());
    company = await signupCompany('Crash Distributed');
    ports.content = await freePort();
    ports.booking = await freePort();
    // Only the subgraphs these writes need: the others are never asked.
    router = await createApp(config, {
      topology: 'distributed',
      subgraphUrls: { content: `http://127.0.0.1:${ports.content}/`, booking: `http://127.0.0.1:${ports.booking}/` },
    });
    await new Promise<void>((r) => router.server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(router.server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(running.map((p) => p.exited));
    await router?.close();
  });

  /** Starts the subgraph, runs `request` through the router, and sees the subgraph die of the hook. */
  async function crashing<T>(name: 'content' | 'booking', request: () => Promise<T>): Promise<T> {
    const subgraph = await subgraphProcess(name, ports[name], config.databaseUrl!, config.jwtSecret);
    running.push(subgraph);
    const answer = await request();
    await subgraph.exited;
    expect(subgraph.child.signalCode).toBe('SIGKILL');
    return answer;
  }

  it('REST: the retry is not run again', async () => {
    const contact = { name: 'Dist Dora', email: `dist.rest.${process.pid}@example.test`, message: 'Hello' };
    const headers = { 'x-company-id': company.companyId, 'idempotency-key': `dist-rest-${Date.now()}` };
    const send = () => call(url, '/v6/customer-portal/contact', { body: contact, headers });
    const first = await crashing('content', send);
    expect(first.status).toBeGreaterThanOrEqual(500);
    const [inquiry] = await contactInquiries(local, company, contact.email);
    const retry = await send();
    expect(retry.status).toBe(409);
    expect(retry.body.error).toMatchObject({ code: 'CONFLICT', details: { resultId: inquiry.id } });
    expect(await contactInquiries(local, company, contact.email)).toEqual([inquiry]);
  }, 120_000);

  it('GraphQL: the retry is not run again', async () => {
    const input = { name: 'Dist Gil', email: `dist.graphql.${process.pid}@example.test`, message: 'Hello' };
    const headers = { 'x-company-id': company.companyId, 'idempotency-key': `dist-graphql-${Date.now()}` };
    const send = () =>
      call(url, '/graphql', {
        body: { query: 'mutation($input: ContactInput!) { submitContactInquiry(input: $input) { id } }', variables: { input } },
        headers,
      });
    const first = await crashing('content', send);
    expect(first.body.errors?.length).toBeGreaterThan(0);
    const [inquiry] = await contactInquiries(local, company, input.email);
    const retry = await send();
    expect(retry.status).toBe(409);
    expect(retry.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', resultId: inquiry.id });
    expect(await contactInquiries(local, company, input.email)).toEqual([inquiry]);
  }, 120_000);

  it('MCP: the retry is not run again', async () => {
    const args = { name: `Dist Stan ${process.pid}`, idempotencyKey: `dist-mcp-${Date.now()}` };
    const client = new Client({ name: 'crash-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${company.apiKey}` } } }));
    try {
      const first = await crashing('booking', () => client.callTool({ name: 'create_staff_member', arguments: args }));
      expect(first.isError).toBe(true);
      const [member] = await staffNamed(local, company, args.name);
      const retry = await client.callTool({ name: 'create_staff_member', arguments: args });
      expect(retry.isError).toBe(true);
      expect(JSON.parse((retry.content as { text: string }[])[0].text).error).toMatchObject({ code: 'CONFLICT', details: { resultId: member.id } });
      expect(await staffNamed(local, company, args.name)).toEqual([member]);
    } finally {
      await client.close();
    }
  }, 120_000);
});
