import type { PairResult, Run } from './load.ts';

export const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export interface Figure {
  values: number[];
  digits: number;
  unit: string;
}

export const fig = (values: number[], digits: number, unit = ''): Figure => ({ values, digits, unit });

/** "1.23 ms" — the median of the rounds. */
export function fmt(f: Figure): string {
  const m = median(f.values);
  return Number.isFinite(m) ? `${m.toFixed(f.digits)}${f.unit === '×' ? '×' : f.unit ? ` ${f.unit}` : ''}` : 'n/a';
}

/** "1.20–1.26" — min–max over the rounds (empty for a single value). */
export function spread(f: Figure): string {
  const v = f.values.filter((x) => Number.isFinite(x));
  if (v.length < 2) return '';
  return `${Math.min(...v).toFixed(f.digits)}–${Math.max(...v).toFixed(f.digits)}`;
}

/** Columns padded to their widest cell; numbers right-aligned. */
export function table(header: string[], rows: string[][], indent = '  '): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    indent +
    cells
      .map((c, i) => (i > 0 && /^[\d.<>≤≥~-]/.test(c) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), indent + widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const withSpread = (f: Figure) => (spread(f) ? `${fmt(f)} (${spread(f)})` : fmt(f));

/** One comparison: each side's throughput, latency and CPU per request per process, then the ratios. */
export function pairReport(p: PairResult): string {
  // Each side's own server first, then what they share (subgraphs, database, client).
  const groups = [...new Set([p.a.target.cpu[0], p.b.target.cpu[0], ...p.a.target.cpu, ...p.b.target.cpu].map((g) => g.name))];
  const row = (side: { target: { name: string; cpu: { name: string }[] }; runs: Run[] }) => [
    side.target.name,
    withSpread(
      fig(
        side.runs.map((r) => r.rps),
        0,
      ),
    ),
    fmt(
      fig(
        side.runs.map((r) => r.p50),
        1,
      ),
    ),
    ...groups.map((g) =>
      side.target.cpu.some((c) => c.name === g)
        ? withSpread(
            fig(
              side.runs.map((r) => r.cpuMsPerRequest[g]),
              2,
            ),
          )
        : '–',
    ),
    String(side.runs.reduce((n, r) => n + r.failed, 0)),
  ];
  const a = p.a.target.name;
  const b = p.b.target.name;
  const ratios = pairRatios(p);
  const serverA = p.a.target.cpu[0].name;
  const serverB = p.b.target.cpu[0].name;
  return [
    p.title,
    table(['side', 'req/s', 'p50 ms', ...groups.map((g) => `${g} CPU ms/req`), 'failed'], [row(p.a), row(p.b)]),
    `  ${a} ÷ ${b}: throughput ${withSpread(ratios.throughput)}, ${serverA} CPU/request ÷ ${serverB}'s ${withSpread(ratios.serverCpu)}`,
  ].join('\n');
}

/** Per-round ratios A ÷ B: throughput, and CPU per request of each side's first ("server") group. */
export function pairRatios(p: PairResult) {
  const rounds = Math.min(p.a.runs.length, p.b.runs.length);
  const per = (f: (a: Run, b: Run) => number) => Array.from({ length: rounds }, (_, i) => f(p.a.runs[i], p.b.runs[i]));
  const sa = p.a.target.cpu[0].name;
  const sb = p.b.target.cpu[0].name;
  return {
    throughput: fig(
      per((a, b) => a.rps / b.rps),
      2,
      '×',
    ),
    serverCpu: fig(
      per((a, b) => a.cpuMsPerRequest[sa] / b.cpuMsPerRequest[sb]),
      2,
      '×',
    ),
  };
}

export interface Goal {
  label: string;
  today?: Figure | string;
  goal: string;
  /** Whether today's median meets the goal (undefined: not measured). */
  met?: boolean;
}

export const atMost = (f: Figure | undefined, limit: number) => (f && Number.isFinite(median(f.values)) ? median(f.values) <= limit : undefined);
export const atLeast = (f: Figure | undefined, limit: number) => (f && Number.isFinite(median(f.values)) ? median(f.values) >= limit : undefined);
export const below = (f: Figure | undefined, limit: number) => (f && Number.isFinite(median(f.values)) ? median(f.values) < limit : undefined);

export function goalsReport(goals: Goal[]): string {
  return table(
    ['goal', 'today (median)', 'spread (min–max)', 'goal', 'met'],
    goals.map((g) => [
      g.label,
      g.today === undefined ? 'not run' : typeof g.today === 'string' ? g.today : fmt(g.today),
      g.today === undefined || typeof g.today === 'string' ? '' : spread(g.today),
      g.goal,
      g.met === undefined ? '–' : g.met ? 'yes' : 'no',
    ]),
  );
}
