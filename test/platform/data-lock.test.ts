import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { LOCK_FILE, lockDataFolder } from '../../subgraphs/kernel/data-lock.ts';
import { eventually } from '../support/eventually.ts';
import { freePort, startServerProcess, waitReady } from '../support/local-servers.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const newFolder = (prefix: string) => join(mkdtempSync(join(tmpdir(), prefix)), 'data');

describe('the data folder lock', () => {
  it('is held by one holder at a time, and taken again once given back', () => {
    const dataDir = newFolder('data-lock-');
    const release = lockDataFolder(dataDir);
    expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    // Another open of the folder, even in this process (a second database opened on it), is refused.
    expect(() => lockDataFolder(dataDir)).toThrow(`${dataDir} is in use by process ${process.pid}`);
    release();
    lockDataFolder(dataDir)();
  });

  it('is not held by a pid written in the lock file, even of a live process (pids are reused)', () => {
    const dataDir = newFolder('data-lock-pid-');
    mkdirSync(dataDir, { recursive: true });
    // This test's parent: alive, and no holder of the folder.
    writeFileSync(join(dataDir, LOCK_FILE), String(process.ppid));
    const release = lockDataFolder(dataDir);
    expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    release();
  });
});

type Server = ReturnType<typeof startServerProcess>;

/** Ready on `port`, or exited first (refused). A generous bound: a loaded machine starts slowly. */
async function readyOrExited(server: Server, port: number): Promise<'ready' | 'exited'> {
  const exited = () => server.child.exitCode !== null || server.child.signalCode !== null;
  for (let i = 0; i < 600 && !exited(); i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return 'ready';
    await Promise.race([server.exited, new Promise((r) => setTimeout(r, 100))]);
  }
  if (exited()) return 'exited';
  throw new Error(`neither ready nor exited:\n${server.output()}`);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The embedded server under a parent that never reaps it (`sh` replaced by `sleep`), as under a
 * container's init that does not wait for its children: SIGKILLed, it stays a zombie, its pid
 * alive to `kill(pid, 0)`, which the earlier pid-file lock took for a running server.
 */
function startUnreaped(dataDir: string, port: number): { pid: Promise<number>; parent: ChildProcess; output: () => string } {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), NODE_ENV: 'development', OUTBOX_LOG: 'silent' };
  delete env.DATABASE_URL;
  delete env.JWT_SECRET;
  const server = `"${process.execPath}" --import tsx router/main.ts`;
  // The server's pid on descriptor 3; `sleep` ends by itself if this test dies before stopping it.
  const log = join(mkdtempSync(join(tmpdir(), 'data-lock-log-')), 'server.log');
  const parent = spawn('sh', ['-c', `${server} 3>&- >"${log}" 2>&1 & echo $! >&3; exec sleep 600 3>&-`], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const pid = new Promise<number>((resolve) => parent.stdio[3]!.once('data', (d) => resolve(Number(String(d).trim()))));
  return { pid, parent, output: () => readFileSync(log, 'utf8') };
}

/** A process's state letter from /proc: R, S, … or Z for a zombie (dead, not yet reaped). */
const processState = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
};

async function graphql(port: number, apiKey: string, query: string) {
  const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, body: await res.json() };
}

/** The server processes on one PGlite data folder: the lock is the operating system's, held by an open file. */
describe.runIf(!inject('databaseUrl') && process.platform === 'linux')('server processes on one data folder', () => {
  const started: ChildProcess[] = [];
  let unreapedPid: number | undefined;
  afterAll(() => {
    // The unreaped server before its parent: while the parent lives, that pid is no other process's.
    try {
      if (unreapedPid) process.kill(unreapedPid, 'SIGKILL');
    } catch {}
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('two start at once: one serves, the other is refused; SIGKILLed and restarted at once, no acknowledged write is lost; a second live process is refused', async () => {
    const dataDir = newFolder('data-lock-process-');

    // Two starts at once on one new folder: exactly one serves.
    const ports = [await freePort(), await freePort()];
    const pair = ports.map((port) => startServerProcess(dataDir, port));
    started.push(...pair.map((s) => s.child));
    const outcomes = await Promise.all(pair.map((s, i) => readyOrExited(s, ports[i])));
    expect(outcomes.slice().sort()).toEqual(['exited', 'ready']);
    const winner = pair[outcomes.indexOf('ready')];
    const loser = pair[outcomes.indexOf('exited')];
    expect(await loser.exited).not.toBe(0);
    expect(loser.output()).toMatch(new RegExp(`${escaped(dataDir)} is in use by (process ${winner.child.pid}|another process)`));
    winner.child.kill('SIGTERM');
    expect(await winner.exited).toBe(0);

    // A server that is never reaped acknowledges a write, then is SIGKILLed.
    const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
    const port = await freePort();
    const unreaped = startUnreaped(dataDir, port);
    started.push(unreaped.parent);
    const killedPid = (unreapedPid = await unreaped.pid);
    await waitReady(port).catch((error) => {
      throw new Error(`${error.message}:\n${unreaped.output()}`);
    });
    const written = await graphql(port, apiKey, 'mutation { createStaffMember(input: { name: "Written before SIGKILL" }) { id name } }');
    expect(written).toMatchObject({ status: 200, body: { data: { createStaffMember: { name: 'Written before SIGKILL' } } } });
    process.kill(killedPid, 'SIGKILL');
    // Dead but not reaped: what a restart right after the kill meets.
    await eventually(() => expect(processState(killedPid)).toBe('Z'), { tries: 200 });

    // Restarted at once on the same folder: it serves, with the write.
    const restarted = startServerProcess(dataDir, port);
    started.push(restarted.child);
    expect(await readyOrExited(restarted, port), restarted.output()).toBe('ready');
    const read = await graphql(port, apiKey, '{ staffMembers(search: "Written before SIGKILL") { items { id name } } }');
    expect(read.body.data.staffMembers.items).toEqual([written.body.data.createStaffMember]);

    // A second live process on the folder is refused, naming the one that has it.
    const second = startServerProcess(dataDir, await freePort());
    started.push(second.child);
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toContain(
      `${dataDir} is in use by process ${restarted.child.pid} (a server on this data folder); stop it or set DATA_DIR to another folder`,
    );

    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
    unreaped.parent.kill('SIGKILL');
  }, 240_000);
});
