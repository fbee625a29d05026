import { cpus } from 'node:os';
import { rssOf, selfGroup, treeGroup, type CpuGroup } from './cpu.ts';
import { interleave, run, variant, type HttpRequest, type PairResult, type Settings, type Target } from './load.ts';
import { restOperation, SERVICES_QUERY, toolDocument } from './operations.ts';
import { killAllNow, removeTempDirs, stopAll } from './proc.ts';
import { atLeast, atMost, below, fig, fmt, goalsReport, pairRatios, pairReport, spread, table, type Figure, type Goal } from './report.ts';
import { seed, type Seeded } from './seed.ts';
import { coldStarts, settledRss } from './startup.ts';
import { countStatements, LIST_SIZES, type StatementCount } from './statements.ts';
import { BenchDatabases, startDistributed, startEmbedded, type Started } from './targets.ts';
import { listingTokens } from './tokens.ts';

/**
 * `npm run bench`: the side-by-side harness of issue 9. It starts what it compares, seeds the same
 * data on each side, runs interleaved rounds (A, B, A, B …) and prints each ratio with its spread
 * and the CPU per request of every process involved; then cold start and memory; then SQL
 * statements per list request at two list sizes. It asserts nothing.
 *
 *   BENCH_ONLY=router,rest,mcp,start,sql,tokens   sections (default: all)
 *   BENCH_DB=pglite,postgres               databases for rest/mcp (postgres needs DATABASE_URL)
 *   BENCH_ROUNDS=3  BENCH_SECONDS=5  BENCH_WARMUP=10  BENCH_CONNECTIONS=10
 *   DATABASE_URL=postgres://…              PostgreSQL parts (a fresh bench_<timestamp>_* database each, dropped after)
 *   BENCH_LAUNCH=tsx                       start servers with tsx instead of the npm scripts (see proc.ts)
 */
const env = process.env;
const settings: Settings = {
  rounds: Number(env.BENCH_ROUNDS ?? 3),
  seconds: Number(env.BENCH_SECONDS ?? 5),
  warmupSeconds: Number(env.BENCH_WARMUP ?? 10),
  connections: Number(env.BENCH_CONNECTIONS ?? 10),
};
const SECTIONS = ['router', 'rest', 'mcp', 'start', 'sql', 'tokens'];
const only = new Set(
  (env.BENCH_ONLY ?? SECTIONS.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
for (const s of only) if (!SECTIONS.includes(s)) throw new Error(`BENCH_ONLY: unknown section "${s}"; known: ${SECTIONS.join(', ')}`);
const databaseUrl = env.DATABASE_URL || undefined;
const dbKinds = (env.BENCH_DB ?? 'pglite,postgres').split(',').map((s) => s.trim());

const progress = (line: string) => process.stderr.write(`${line}\n`);
const started = new Date();

const pairs: PairResult[] = [];
const notes: string[] = [];
const figures: {
  routerVsDirect?: PairResult;
  routerVsApollo?: PairResult;
  routerVsApolloIdentical?: PairResult;
  rest: Record<string, PairResult>;
  mcp: Record<string, PairResult>;
  fresh?: Figure;
  existing?: Figure;
  rssStart?: Figure;
  rssLoad?: Figure;
  rssPeak?: Figure;
  statements?: StatementCount[];
} = { rest: {}, mcp: {} };

const databases = databaseUrl ? new BenchDatabases(databaseUrl) : undefined;
await databases?.open();
// Interrupted: stop the servers, drop the bench databases, remove the temp folders.
process.once('SIGINT', () => {
  progress('interrupted: cleaning up');
  void stopAll()
    .then(() => databases?.close())
    .finally(() => {
      removeTempDirs();
      process.exit(130);
    });
});
process.on('exit', killAllNow);

const tree = (name: string, s: Started | Started[]): CpuGroup => treeGroup(name, () => [s].flat().map((x) => x.server.pid));
const json = (body: unknown) => JSON.stringify(body);
const post = (path: string, headers: Record<string, string>, body: unknown): HttpRequest => ({
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json', ...headers },
  body: json(body),
});
const mcpCall = (apiKey: string, tool: string, args: Record<string, unknown>) =>
  post(
    '/mcp',
    { authorization: `Bearer ${apiKey}`, accept: 'application/json, text/event-stream' },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } },
  );

try {
  if (only.has('router')) {
    if (!databases) notes.push('router: skipped (the distributed topology needs DATABASE_URL)');
    else {
      progress('router: distributed topology on PostgreSQL (subgraph processes, our router, @apollo/gateway)');
      const url = await databases.create('distributed');
      const stack = await startDistributed(url);
      const { companyId } = await seed(stack.router.base, 'distributed');
      const subgraphs = [...stack.subgraphs.values()];
      const tenant = { 'x-company-id': companyId };
      const pgGroup = databases.backends(url);
      const services = (limit: (i: number) => number) => (i: number) => post('/graphql', tenant, { query: SERVICES_QUERY, variables: { limit: limit(i) } });
      const router = (limit: (i: number) => number): Target => ({
        name: 'router',
        base: stack.router.base,
        request: services(limit),
        cpu: [tree('router', stack.router), tree('subgraphs', subgraphs), pgGroup, selfGroup()],
      });
      const apollo = (limit: (i: number) => number): Target => ({
        name: '@apollo/gateway',
        base: stack.apollo.base,
        request: services(limit),
        cpu: [tree('@apollo/gateway', stack.apollo), tree('subgraphs', subgraphs), pgGroup, selfGroup()],
      });
      const direct: Target = {
        name: 'booking subgraph',
        base: stack.subgraphs.get('booking')!.base,
        request: services(variant),
        cpu: [tree('subgraphs', subgraphs), pgGroup, selfGroup()],
      };
      const identical = () => 20;
      figures.routerVsDirect = await interleave(
        'Router vs the booking subgraph directly · distinct requests · distributed, PostgreSQL',
        router(variant),
        direct,
        settings,
        progress,
      );
      figures.routerVsApollo = await interleave(
        'Router vs @apollo/gateway (same subgraph processes, same supergraph) · distinct requests',
        router(variant),
        apollo(variant),
        settings,
        progress,
      );
      figures.routerVsApolloIdentical = await interleave(
        'Router vs @apollo/gateway · identical requests (in-flight deduplication)',
        router(identical),
        apollo(identical),
        settings,
        progress,
      );
      pairs.push(figures.routerVsDirect, figures.routerVsApollo, figures.routerVsApolloIdentical);
      await stack.stop();
    }
  }

  if (only.has('rest') || only.has('mcp')) {
    for (const kind of dbKinds) {
      if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`BENCH_DB: unknown database "${kind}"`);
      if (kind === 'postgres' && !databases) {
        notes.push('rest/mcp on PostgreSQL: skipped (no DATABASE_URL)');
        continue;
      }
      const label = kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
      progress(`embedded: npm start on ${label}`);
      const url = kind === 'postgres' ? await databases!.create('embedded') : undefined;
      const app = await startEmbedded(`npm start (${label})`, { databaseUrl: url });
      const seeded = await seed(app.base, kind);
      const cpu = [tree('server', app), ...(url ? [databases!.backends(url)] : []), selfGroup()];
      const embedded = embeddedTargets(app, seeded, cpu);
      if (only.has('rest')) {
        const { rest, graphql } = await embedded.rest();
        figures.rest[label] = await interleave(
          `REST GET /v6/customer-portal/services vs its GraphQL operation · embedded, ${label}`,
          rest,
          graphql,
          settings,
          progress,
        );
        pairs.push(figures.rest[label]);
      }
      if (only.has('mcp')) {
        const { mcp, graphql } = embedded.mcp();
        figures.mcp[label] = await interleave(`MCP list_services vs the same GraphQL operation · embedded, ${label}`, mcp, graphql, settings, progress);
        pairs.push(figures.mcp[label]);
      }
      await app.server.stop();
    }
  }

  if (only.has('start')) {
    progress('start: cold start of npm start on PGlite, then memory after start and after load');
    const starts = await coldStarts(settings.rounds, progress);
    figures.fresh = fig(
      starts.freshMs.map((ms) => ms / 1000),
      2,
      's',
    );
    figures.existing = fig(
      starts.existingMs.map((ms) => ms / 1000),
      2,
      's',
    );
    const app = starts.last;
    figures.rssStart = fig([await settledRss(app)], 0, 'MB');
    const seeded = await seed(app.base, 'memory');
    const embedded = embeddedTargets(app, seeded, [tree('server', app)]);
    const { rest, graphql } = await embedded.rest();
    for (const target of [rest, graphql, embedded.mcp().mcp]) {
      const r = await run(target, settings.seconds, settings.connections);
      progress(`  load · ${target.name}: ${r.rps.toFixed(0)} req/s`);
    }
    const after = rssOf(app.server.pid);
    figures.rssLoad = fig([after.rssMb], 0, 'MB');
    figures.rssPeak = fig([after.peakMb], 0, 'MB');
    await app.server.stop();
  }

  if (only.has('sql')) {
    progress('sql: statements per list request (in-process, PGlite)');
    figures.statements = await countStatements();
  }
} finally {
  await stopAll();
  await databases?.close();
  removeTempDirs();
}

/** The embedded server's REST and MCP reads, each with the GraphQL operation it runs. */
function embeddedTargets(app: Started, { companyId, apiKey }: Seeded, cpu: CpuGroup[]) {
  const tenant = { 'x-company-id': companyId };
  return {
    async rest() {
      const op = await restOperation(app.base, 'Query.services');
      const rest: Target = {
        name: 'REST',
        base: app.base,
        request: (i) => ({ method: 'GET', path: `/v6/customer-portal/services?limit=${variant(i)}`, headers: tenant }),
        cpu,
      };
      const graphql: Target = {
        name: 'GraphQL',
        base: app.base,
        request: (i) => post('/graphql', tenant, { query: op.query, variables: op.variables({ limit: variant(i) }) }),
        cpu,
      };
      // The two must answer the same data, or the comparison is not of one operation.
      const a = await (await fetch(`${app.base}/v6/customer-portal/services?limit=20`, { headers: tenant })).json();
      const b = await (
        await fetch(`${app.base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...tenant },
          body: json({ query: op.query, variables: op.variables({ limit: 20 }) }),
        })
      ).json();
      if (json(a.data) !== json(b.data?.services))
        notes.push('REST and its GraphQL operation answered different data: the REST selection was not reproduced exactly');
      return { rest, graphql };
    },
    mcp() {
      const query = toolDocument('list_services');
      const merchant = { authorization: `Bearer ${apiKey}` };
      const mcp: Target = { name: 'MCP', base: app.base, request: (i) => mcpCall(apiKey, 'list_services', { limit: variant(i) }), cpu };
      const graphql: Target = { name: 'GraphQL', base: app.base, request: (i) => post('/graphql', merchant, { query, variables: { limit: variant(i) } }), cpu };
      return { mcp, graphql };
    },
  };
}

// ───────────────────────────── report ─────────────────────────────
const out: string[] = [];
const cpuModel = cpus()[0]?.model.trim() ?? 'unknown CPU';
out.push(
  `npm run bench — ${started.toISOString().slice(0, 10)} — ${cpus().length} cores (${cpuModel}), Node ${process.version}, ${process.platform}`,
  `${settings.rounds} interleaved rounds (A B, B A, …) × ${settings.seconds} s per side (after ${settings.warmupSeconds} s of warm-up per side), ${settings.connections} connections (autocannon, in this process: "client");`,
  `distinct requests vary limit 20–100 over 20 seeded services (same answer, different request); figures are medians, spreads min–max over the rounds.`,
  `CPU ms/req: CPU time of the named processes over a run ÷ successful answers (server: the whole npm start tree; postgres: the backends of the bench database).`,
  '',
);
for (const p of pairs) out.push(pairReport(p), '');

if (figures.fresh) {
  out.push(
    'Start-up and memory (npm start, PGlite)',
    table(
      ['measure', 'median', 'spread (min–max)'],
      [
        ['npm start → /readyz 200, fresh data folder', fmt(figures.fresh), spread(figures.fresh)],
        ['npm start → /readyz 200, existing data folder', fmt(figures.existing!), spread(figures.existing!)],
        ['RSS 1 s after start (existing folder)', fmt(figures.rssStart!), ''],
        ['RSS after load (REST, GraphQL, MCP runs)', fmt(figures.rssLoad!), ''],
        ['peak RSS (VmHWM)', fmt(figures.rssPeak!), ''],
      ],
    ),
    '',
  );
}
if (figures.statements) {
  out.push(
    `SQL statements per list request (${LIST_SIZES[0]} and ${LIST_SIZES[1]} items)`,
    table(
      ['list', `${LIST_SIZES[0]} items`, `${LIST_SIZES[1]} items`, 'constant'],
      figures.statements.map((s) => [s.list, String(s.counts[0]), String(s.counts[1]), s.counts[0] === s.counts[1] ? 'yes' : 'no']),
    ),
    '',
  );
}

if (only.has('tokens')) {
  out.push(
    'MCP tools/list size, o200k tokens',
    table(
      ['view', 'tools', 'tokens', 'budget', 'within'],
      listingTokens().map((l) => [
        l.view,
        String(l.tools),
        String(l.tokens),
        l.budget ? String(l.budget) : '',
        l.budget ? (l.tokens <= l.budget ? 'yes' : 'no') : '',
      ]),
    ),
    '',
  );
}

const ratio = (p: PairResult | undefined, which: 'throughput' | 'serverCpu') => (p ? pairRatios(p)[which] : undefined);
const serverCpu = (p: PairResult | undefined) =>
  p
    ? fig(
        p.a.runs.map((r) => r.cpuMsPerRequest.server),
        2,
        'ms',
      )
    : undefined;
const goals: Goal[] = [];
const routerCpu = ratio(figures.routerVsApollo, 'serverCpu');
const routerTp = ratio(figures.routerVsApollo, 'throughput');
const routerDedup = ratio(figures.routerVsApolloIdentical, 'throughput');
goals.push(
  { label: "Router CPU/request ÷ @apollo/gateway's, distinct requests", today: routerCpu, goal: '≤ 0.5×', met: atMost(routerCpu, 0.5) },
  { label: 'Whole-stack throughput router ÷ @apollo/gateway, distinct', today: routerTp, goal: '≥ 1.3×', met: atLeast(routerTp, 1.3) },
  { label: 'Same, identical requests (in-flight dedup)', today: routerDedup, goal: '≥ 4×', met: atLeast(routerDedup, 4) },
);
for (const label of ['PGlite', 'PostgreSQL']) {
  const f = ratio(figures.mcp[label], 'throughput');
  if (f || label === 'PGlite') goals.push({ label: `MCP list_services ÷ same GraphQL operation (${label})`, today: f, goal: '≥ 0.9×', met: atLeast(f, 0.9) });
}
const direct = ratio(figures.routerVsDirect, 'throughput');
goals.push({ label: 'Router ÷ subgraph directly, throughput (distributed)', today: direct, goal: '≥ 0.8×', met: atLeast(direct, 0.8) });
for (const [label, limit] of [
  ['PGlite', 3],
  ['PostgreSQL', 1.5],
] as const) {
  const f = serverCpu(figures.rest[label]);
  goals.push({ label: `Embedded services list, REST CPU/request (${label})`, today: f, goal: `≤ ${limit} ms`, met: atMost(f, limit) });
}
goals.push(
  { label: 'npm start, fresh data folder', today: figures.fresh, goal: '< 2 s', met: below(figures.fresh, 2) },
  { label: 'npm start, existing data folder', today: figures.existing, goal: '< 1.5 s', met: below(figures.existing, 1.5) },
  { label: 'RSS after start (PGlite)', today: figures.rssStart, goal: '< 250 MB', met: below(figures.rssStart, 250) },
  { label: 'RSS after load (PGlite)', today: figures.rssLoad, goal: '< 350 MB', met: below(figures.rssLoad, 350) },
);
const st = figures.statements;
goals.push({
  label: `SQL statements per list request (${LIST_SIZES[0]} → ${LIST_SIZES[1]} items)`,
  today: st ? st.map((s) => `${s.counts[0]}→${s.counts[1]}`).join(', ') : undefined,
  goal: 'constant',
  met: st ? st.every((s) => s.counts[0] === s.counts[1]) : undefined,
});
out.push('Goals of issue 9 (today → goal)', goalsReport(goals));
if (notes.length) out.push('', ...notes.map((n) => `note: ${n}`));
console.log(out.join('\n'));
process.exit(0);
