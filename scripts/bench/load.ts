import autocannon from 'autocannon';
import { cpuBetween, sampleCpu, type CpuGroup } from './cpu.ts';

export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** One side of a comparison: where requests go, what each looks like, whose CPU it costs. */
export interface Target {
  name: string;
  base: string;
  /** The i-th request of a run. Distinct runs vary it (see `variant`), identical runs ignore `i`. */
  request(i: number): HttpRequest;
  /** Processes whose CPU is charged to this side, the first being "the" server of the side. */
  cpu: CpuGroup[];
}

export interface Settings {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
}

export interface Run {
  /** Successful answers per second. */
  rps: number;
  ok: number;
  /** Non-2xx answers, connection errors, and 2xx answers carrying GraphQL errors or an MCP isError. */
  failed: number;
  p50: number;
  p99: number;
  /** CPU milliseconds per successful answer, per CPU group. */
  cpuMsPerRequest: Record<string, number>;
}

/**
 * Distinct requests: with 20 seeded services, a limit between 20 and 100 answers the same 20 items,
 * yet each limit is a different request to the gateway, so its in-flight deduplication cannot merge
 * concurrent requests (81 variants over 10 connections).
 */
export const variant = (i: number) => 20 + (i % 81);

/** Runs `target` for `seconds` with `connections` concurrent clients and charges the CPU it cost. */
export async function run(target: Target, seconds: number, connections: number): Promise<Run> {
  let n = 0;
  let failedBodies = 0;
  const before = await sampleCpu(target.cpu);
  const result = await autocannon({
    url: target.base,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (req) => ({ ...req, ...target.request(n++) }),
        onResponse: (status, body) => {
          if (status < 300 && failedBody(body)) failedBodies++;
        },
      },
    ],
  });
  const cpu = cpuBetween(before, await sampleCpu(target.cpu));
  const ok = result['2xx'] - failedBodies;
  return {
    rps: ok / result.duration,
    ok,
    failed: result.non2xx + result.errors + failedBodies,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMsPerRequest: Object.fromEntries(Object.entries(cpu).map(([name, ms]) => [name, ok ? ms / ok : NaN])),
  };
}

export interface PairResult {
  title: string;
  a: { target: Target; runs: Run[] };
  b: { target: Target; runs: Run[] };
}

/**
 * Warms both sides, then runs A, B, B, A, A, B … for `rounds` rounds. The two sides often share
 * processes (a subgraph, the database) that keep getting faster for the first 20–30 s of load (JIT
 * tiers, caches): the booking subgraph's CPU per list fell from 1.29 to 0.72 ms over its first 28 s.
 * The warm-up covers most of that, and the order alternates so that what is left is not charged to
 * the side that always runs first (the first pair measured 0.69× in its first round, 0.80× after).
 */
export async function interleave(title: string, a: Target, b: Target, s: Settings, progress: (line: string) => void): Promise<PairResult> {
  await check(a);
  await check(b);
  if (s.warmupSeconds > 0) {
    await run(a, s.warmupSeconds, s.connections);
    await run(b, s.warmupSeconds, s.connections);
  }
  const result: PairResult = { title, a: { target: a, runs: [] }, b: { target: b, runs: [] } };
  for (let round = 1; round <= s.rounds; round++) {
    for (const side of round % 2 ? [result.a, result.b] : [result.b, result.a]) {
      const r = await run(side.target, s.seconds, s.connections);
      side.runs.push(r);
      progress(`  ${title} · round ${round}/${s.rounds} · ${side.target.name}: ${r.rps.toFixed(0)} req/s${r.failed ? `, ${r.failed} failed` : ''}`);
    }
  }
  return result;
}

/** Sends two requests of the target and fails loudly unless both succeed. */
export async function check(target: Target) {
  for (const i of [0, 1]) {
    const req = target.request(i);
    const res = await fetch(target.base + req.path, { method: req.method, headers: req.headers, body: req.body });
    const text = await res.text();
    if (!res.ok || failedBody(text)) {
      throw new Error(`${target.name}: ${req.method} ${req.path} answered ${res.status} ${text.slice(0, 500)}`);
    }
  }
}

/** A 2xx answer that still failed: GraphQL errors, or an MCP tool result with isError. */
const failedBody = (body: string) => body.includes('"errors":[') || body.includes('"isError":true');
