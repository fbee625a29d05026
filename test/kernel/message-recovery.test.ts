import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../support/database.ts';
import { eventually } from '../support/eventually.ts';
import { freePort, recordingSmtp } from '../support/local-servers.ts';

const root = join(import.meta.dirname, '..', '..');

/**
 * A message claimed by a process that dies mid-delivery is delivered after a restart: the real
 * server process, a real SMTP server that holds the first delivery open, SIGKILL, and a new process
 * on the same database. Short claim expiry and supervision keep the wait to seconds.
 */
describe('outgoing messages across a crash', () => {
  const arrived: string[] = [];
  let holdDelivery = true;
  let smtp: { url: string; close: () => Promise<void> };
  let smtpUrl: string;
  const database: { url?: string; drop?: () => Promise<void> } = {};

  beforeAll(async () => {
    smtp = await recordingSmtp((data) => {
      arrived.push(data);
      // While held, the message is read but never acknowledged: the sender is stuck mid-delivery.
      return !holdDelivery;
    });
    smtpUrl = smtp.url;
    // On PostgreSQL a database of its own, so its queue settings are the ones this test starts with.
    const base = inject('databaseUrl');
    if (base) {
      Object.assign(database, await createDatabase(base, 'recovery'));
    }
  });

  afterAll(async () => {
    await smtp.close();
    await database.drop?.();
  });

  function start(dataDir: string, port: number): { child: ChildProcess; exited: Promise<unknown> } {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      NODE_ENV: 'development',
      OUTBOX_LOG: 'silent',
      SMTP_URL: smtpUrl,
      JOB_EXPIRE_SECONDS: '3',
      JOB_SUPERVISE_SECONDS: '1',
    };
    delete env.DATABASE_URL;
    if (database.url) env.DATABASE_URL = database.url;
    // Node itself with tsx's loader, not the tsx command: SIGKILL must kill the server, not a wrapper
    // that would leave it running (and delivering) beside the next one.
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'router/main.ts')], { cwd: root, env, stdio: 'ignore' });
    return { child, exited: new Promise((r) => child.on('exit', r)) };
  }

  const ready = (port: number) =>
    eventually(async () => expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200), { tries: 600, intervalMs: 100 });

  it('is delivered by the next process', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'platform-recovery-'));
    const port = await freePort();
    const first = start(dataDir, port);
    await ready(port);
    const email = `crash.${process.pid}@example.test`;
    const signup = await fetch(`http://127.0.0.1:${port}/v6/dev/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, organisationName: 'Crash Studio', industry: 'salon', country: 'DE' }),
    });
    expect(signup.status).toBe(200);
    // The first process has claimed the message and is stuck handing it to the SMTP server.
    await eventually(() => expect(arrived.length).toBe(1), { tries: 200 });
    first.child.kill('SIGKILL');
    await first.exited;

    holdDelivery = false;
    const second = start(dataDir, port);
    try {
      await ready(port);
      const delivered = await eventually(
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/dev/outbox?to=${encodeURIComponent(email)}`);
          const { data } = await res.json();
          expect(data.items).toHaveLength(1);
          return data.items[0];
        },
        { tries: 600, intervalMs: 100 },
      );
      expect(delivered.body).toMatch(/\b\d{6}\b/);
      expect(arrived.length).toBe(2);
      expect(arrived[1]).toContain('Crash Studio');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 180_000);
});
