import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startPlatform, type Platform } from '../../router/platform.ts';
import { loadConfig } from '../../subgraphs/kernel/config.ts';
import { createPglite } from '../../subgraphs/kernel/database.ts';
import { Company } from '../../subgraphs/members/entities/company.ts';
import { members } from '../../subgraphs/members/index.ts';
import { seedDemoCompany } from '../../subgraphs/members/services/demo.ts';
import { createDatabase } from '../support/database.ts';
import { freePort, startServerProcess, waitReady } from '../support/local-servers.ts';

const databaseUrl = inject('databaseUrl');
const newFolder = (prefix: string) => join(mkdtempSync(join(tmpdir(), prefix)), 'data');

describe('a production start on an empty database', () => {
  let platform: Platform | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await platform?.stop();
    await drop?.();
  });

  it('creates no demo company and writes no key; the same start outside production does', async () => {
    // Empty: a new PGlite in memory (the run's snapshot holds the run's demo company), or a PostgreSQL database of its own.
    let pglite;
    let url: string | undefined;
    if (databaseUrl) ({ url, drop } = await createDatabase(databaseUrl, 'production_start'));
    else pglite = await createPglite();
    const dataDir = newFolder('production-start-');
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      ...(url ? { DATABASE_URL: url } : {}),
    });
    // The members module's start-up hook is the demo seed.
    platform = await startPlatform(config, [members], { pglite, consume: false });
    const companies = () => platform!.runtime.db.orm.em.fork().count(Company, {});
    expect(await companies()).toBe(0);
    expect(existsSync(join(dataDir, 'demo-credentials.json'))).toBe(false);

    await seedDemoCompany({ ...platform.runtime, config: { ...config, production: false } });
    expect(await companies()).toBe(1);
    expect(JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')).apiKey).toMatch(/^svc_mcp_/);
  }, 120_000);
});

/** `npm start` with NODE_ENV=production, as the Dockerfile's image runs it. */
describe.runIf(!databaseUrl)('the server process in production', () => {
  it('refuses to start with a secret published in the repository, saying why', async () => {
    const server = startServerProcess(newFolder('production-refused-'), await freePort(), {
      NODE_ENV: 'production',
      JWT_SECRET: 'change-me-to-a-long-random-secret-of-32-chars',
    });
    expect(await server.exited).not.toBe(0);
    expect(server.output()).toContain('JWT_SECRET is a secret published in this project');
  }, 120_000);

  it('starts on a new data folder with no demo company and prints no key', async () => {
    const dataDir = newFolder('production-process-');
    const port = await freePort();
    const server = startServerProcess(dataDir, port, { NODE_ENV: 'production', JWT_SECRET: randomBytes(48).toString('base64url') });
    try {
      await waitReady(port);
      expect(existsSync(join(dataDir, 'demo-credentials.json'))).toBe(false);
      expect(server.output()).not.toMatch(/svc_mcp_|Demo company/);
      // No storefront on localhost, which the demo company is served on (test/platform/process.test.ts).
      const channel = await fetch(`http://127.0.0.1:${port}/v6/customer-portal/auth/login-channel`, { headers: { 'x-forwarded-host': 'localhost' } });
      expect({ status: channel.status, body: await channel.json() }).toMatchObject({
        status: 400,
        body: { success: false, error: { code: 'BAD_USER_INPUT' } },
      });
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }, 150_000);
});
