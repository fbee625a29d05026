import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time and memory of processes, read from /proc (Linux). A server started through `npm start`
 * is a tree (npm → sh → tsx → node → esbuild): its CPU is the sum over the tree (the wrappers
 * idle), its memory is that of the tree's largest process (the server).
 */

const TICK_MS = 1000 / (Number(safe(() => execFileSync('getconf', ['CLK_TCK']).toString().trim())) || 100);

function safe<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

interface Stat {
  ppid: number;
  /** utime + stime in milliseconds. */
  cpuMs: number;
}

function stat(pid: number): Stat | undefined {
  const text = safe(() => readFileSync(`/proc/${pid}/stat`, 'utf8'));
  if (!text) return undefined;
  // The command name may hold spaces and parentheses: the fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
}

/** `root` and every process below it, as they are now. */
export function treePids(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(Number(entry));
    if (!s) continue;
    const list = children.get(s.ppid) ?? [];
    list.push(Number(entry));
    children.set(s.ppid, list);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** A named set of processes whose CPU is counted together (one server, three subgraphs, PostgreSQL backends). */
export interface CpuGroup {
  name: string;
  /** The processes now; `'self'` is this process (process.cpuUsage). */
  pids(): Promise<number[] | 'self'> | number[] | 'self';
}

export const selfGroup = (name = 'client'): CpuGroup => ({ name, pids: () => 'self' });
export const treeGroup = (name: string, roots: () => number[]): CpuGroup => ({ name, pids: () => roots().flatMap(treePids) });

export type CpuSample = Map<string, Map<number, number>>;

export async function sampleCpu(groups: CpuGroup[]): Promise<CpuSample> {
  const sample: CpuSample = new Map();
  for (const group of groups) {
    const pids = await group.pids();
    const times = new Map<number, number>();
    if (pids === 'self') {
      const { user, system } = process.cpuUsage();
      times.set(process.pid, (user + system) / 1000);
    } else {
      for (const pid of pids) {
        const s = stat(pid);
        if (s) times.set(pid, s.cpuMs);
      }
    }
    sample.set(group.name, times);
  }
  return sample;
}

/** CPU milliseconds each group spent between two samples (a process born in between counts whole). */
export function cpuBetween(before: CpuSample, after: CpuSample): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, times] of after) {
    let ms = 0;
    for (const [pid, t] of times) ms += Math.max(0, t - (before.get(name)?.get(pid) ?? 0));
    out[name] = ms;
  }
  return out;
}

function statusKb(pid: number, key: string): number {
  const text = safe(() => readFileSync(`/proc/${pid}/status`, 'utf8')) ?? '';
  const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

/** Resident memory (MB) of the largest process under `root` now, and its peak (VmHWM). */
export function rssOf(root: number): { rssMb: number; peakMb: number; pid: number } {
  let best = { rssMb: 0, peakMb: 0, pid: root };
  for (const pid of treePids(root)) {
    const rssMb = statusKb(pid, 'VmRSS') / 1024;
    if (rssMb > best.rssMb) best = { rssMb, peakMb: statusKb(pid, 'VmHWM') / 1024, pid };
  }
  return best;
}
