import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** A free TCP port on loopback (for a server process the test starts). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The embedded server as a process of its own (router/main.ts with tsx), on PGlite in `dataDir`, in
 * development unless `extra` says otherwise; its output is kept for assertions.
 */
export function startServerProcess(
  dataDir: string,
  port: number,
  extra: NodeJS.ProcessEnv = {},
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let out = '';
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), NODE_ENV: 'development', OUTBOX_LOG: 'silent' };
  delete env.DATABASE_URL;
  delete env.JWT_SECRET;
  Object.assign(env, extra);
  // Node itself with tsx's loader, not the tsx command: a signal (SIGKILL above all) must reach the
  // server, not a wrapper that would leave it running.
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'router/main.ts')], { cwd: ROOT, env });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out, exited: new Promise((r) => child.on('exit', (code) => r(code))) };
}

/** Waits until a server process answers /readyz. */
export async function waitReady(port: number) {
  // A generous bound: a loaded CI machine transpiles and starts PGlite slowly; only liveness is asserted.
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

/**
 * A real SMTP server on loopback that hands each message's raw text to `received`; the message is
 * acknowledged when `received` answers true (a test can hold a sender mid-delivery).
 */
export async function recordingSmtp(received: (data: string) => boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk) => (data += chunk));
      stream.on('end', () => {
        if (received(data)) callback();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  return { url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}
