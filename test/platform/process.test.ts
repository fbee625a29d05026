import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { freePort, startServerProcess as start, waitReady } from '../support/local-servers.ts';

/** `npm start` as a newcomer runs it: a fresh PGlite folder, the demo company, one process per folder, SIGTERM. */
describe.runIf(!inject('databaseUrl'))('the embedded server process', () => {
  it('starts on an empty folder, seeds the demo company once, locks the folder and stops on SIGTERM', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'platform-start-')), 'nested', 'data');
    const port = await freePort();
    const first = start(dataDir, port);
    await waitReady(port);
    const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
    expect(credentials.apiKey).toMatch(/^svc_mcp_/);
    expect(first.output()).toContain(credentials.apiKey);
    const channel = await fetch(`http://127.0.0.1:${port}/v6/customer-portal/auth/login-channel`, { headers: { 'x-forwarded-host': 'localhost' } });
    expect((await channel.json()).data.companyId).toBe(credentials.companyId);

    const second = start(dataDir, await freePort());
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toMatch(/in use by process/);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // A restart keeps the data and does not seed again; in production the dev outbox is gone.
    const third = start(dataDir, port, { NODE_ENV: 'production', JWT_SECRET: readFileSync(join(dataDir, 'jwt-secret'), 'utf8') });
    await waitReady(port);
    expect(third.output()).not.toContain('Demo company created');
    const devOutbox = await fetch(`http://127.0.0.1:${port}/dev/outbox?to=a@b.example`);
    expect(devOutbox.status).toBe(404);
    const company = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.apiKey}` },
      body: JSON.stringify({ query: '{ company { id name } }' }),
    });
    expect((await company.json()).data.company).toEqual({ id: credentials.companyId, name: 'Demo Studio' });
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 150_000);
});
