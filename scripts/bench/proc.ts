import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/**
 * What the harness starts, and how. By default through the npm scripts (`npm start`,
 * `npm run start:router`, `npm run start:subgraph -- <name>`), as a user would; BENCH_LAUNCH=tsx
 * starts the same source files with tsx directly. BENCH_SCRIPT_ROUTER,
 * BENCH_SCRIPT_DISTRIBUTED_ROUTER and BENCH_SCRIPT_SUBGRAPH name other npm scripts for them.
 * The @apollo/gateway comparison server has no npm script: it always runs through tsx.
 */
const ENTRIES = {
  router: { script: process.env.BENCH_SCRIPT_ROUTER ?? 'start', source: 'router/main.ts' },
  // The router alone over subgraph processes (TOPOLOGY=distributed), as docker-compose.yml runs it.
  distributedRouter: { script: process.env.BENCH_SCRIPT_DISTRIBUTED_ROUTER ?? 'start:router', source: 'router/main.ts' },
  subgraph: { script: process.env.BENCH_SCRIPT_SUBGRAPH ?? 'start:subgraph', source: 'router/subgraph-server.ts' },
  apollo: { script: undefined, source: 'scripts/bench/apollo-gateway.ts' },
} as const;

export type Entry = keyof typeof ENTRIES;

function command(entry: Entry, args: string[]): [string, string[]] {
  const { script, source } = ENTRIES[entry];
  if (script && (process.env.BENCH_LAUNCH ?? 'npm') === 'npm') return ['npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])]];
  return [join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, source), ...args]];
}

export interface Server {
  name: string;
  /** The launched process (npm or tsx); the server is somewhere below it, in its process group. */
  pid: number;
  /** Resolves when the whole process group has gone. */
  stop(): Promise<void>;
  /** SIGKILL to the whole group, as a crash would: nothing runs its shutdown. */
  kill(): Promise<void>;
  exited(): boolean;
  /** The last lines it printed (for a failure report). */
  output(): string;
}

const running = new Set<Server>();

/** Starts an entry in a process group of its own, its output kept rather than shown. */
export function launch(name: string, entry: Entry, args: string[], env: Record<string, string>): Server {
  const [cmd, argv] = command(entry, args);
  const child: ChildProcess = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    if (lines.length > 60) lines.splice(0, lines.length - 60);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited = false;
  child.on('exit', () => (exited = true));
  const pid = child.pid!;
  const server: Server = {
    name,
    pid,
    exited: () => exited,
    output: () => lines.join('\n'),
    async stop() {
      running.delete(server);
      signalGroup(pid, 'SIGTERM');
      for (let i = 0; i < 300 && groupAlive(pid); i++) await sleep(50);
      if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
      for (let i = 0; i < 100 && groupAlive(pid); i++) await sleep(50);
    },
    async kill() {
      running.delete(server);
      signalGroup(pid, 'SIGKILL');
      for (let i = 0; i < 100 && groupAlive(pid); i++) await sleep(50);
    },
  };
  running.add(server);
  return server;
}

function signalGroup(pgid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pgid, signal);
  } catch {}
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops everything this harness started (on the way out, also after a failure). */
export async function stopAll() {
  await Promise.all([...running].map((s) => s.stop()));
}

/** On an abrupt exit: signal our process groups, synchronously. */
export function killAllNow() {
  for (const s of running) signalGroup(s.pid, 'SIGTERM');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `ready()` holds; fails early with the server's output if it exits. */
export async function waitUntil(server: Server, ready: () => Promise<boolean>, timeoutMs = 120_000, intervalMs = 50): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < timeoutMs) {
    if (server.exited()) throw new Error(`${server.name} exited before it was ready:\n${server.output()}`);
    try {
      if (await ready()) return performance.now() - start;
    } catch {}
    await sleep(intervalMs);
  }
  throw new Error(`${server.name} not ready after ${timeoutMs / 1000} s:\n${server.output()}`);
}

export const readyz = (base: string) => async () => (await fetch(`${base}/readyz`)).status === 200;
export const answersGraphql = (url: string) => async () =>
  (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })).ok;

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

const tempDirs: string[] = [];

/** A fresh folder under the system temp dir, removed by `removeTempDirs` at the end of the run. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export function removeTempDirs() {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
