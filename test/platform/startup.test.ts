import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { execute, isInterfaceType, isObjectType, isUnionType, parse, type GraphQLSchema } from 'graphql';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { loadTools } from '../../facades/mcp/registry.ts';
import { checkedInSupergraph, composeSupergraph, subgraphUrl } from '../../router/compose.ts';
import { createGateway } from '../../router/gateway.ts';
import { costAnnotations, costAnnotationsFile, serveBuiltCostAnnotations } from '../../router/limits.ts';
import { moduleNamed, MODULES, SUBGRAPH_PORTS } from '../../router/modules.ts';
import { startPlatform } from '../../router/platform.ts';
import { loadConfig } from '../../subgraphs/kernel/config.ts';
import { createPglite, restoreDataFolder, restoreNewDataFoldersFrom } from '../../subgraphs/kernel/database.ts';
import { builtSubgraph, serveBuiltSubgraphs } from '../../subgraphs/kernel/federation.ts';
import { freePort } from '../support/local-servers.ts';
import { testServer } from '../support/server.ts';

const root = join(import.meta.dirname, '..', '..');
const databaseUrl = inject('databaseUrl');
const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};

describe('the supergraph a router starts with', () => {
  it('is the checked-in one with this process’s subgraph URLs, exactly what composing would give', async () => {
    const schemas = await Promise.all(MODULES.map(async (m) => ({ name: m.name, schema: await m.buildSchema() })));
    const env = { SUBGRAPH_BOOKING_URL: 'http://booking.internal:8080/graphql' };
    const subgraphs = schemas.map((s) => ({ ...s, url: subgraphUrl(s.name, SUBGRAPH_PORTS[s.name], env) }));
    const loaded = checkedInSupergraph(subgraphs);
    expect(loaded, 'schema/ matches the code (else schema-drift.test.ts fails too)').toBeDefined();
    expect(loaded!.trimEnd()).toBe((await composeSupergraph(subgraphs)).supergraphSdl.trimEnd());
    expect(loaded).toContain('url: "http://booking.internal:8080/graphql"');
    expect(loaded).toContain('url: "http://127.0.0.1:4001/graphql"');
  });

  it('is not the checked-in one when a subgraph no longer prints as its schema/<name>.graphql', async () => {
    const [first] = MODULES;
    const schema = await MODULES[1].buildSchema();
    expect(checkedInSupergraph([{ name: first.name, schema, url: 'http://x/graphql' }])).toBeUndefined();
  });
});

describe("the supergraph's cost annotations the build read (dist/cost-annotations.json)", () => {
  it('are those of the supergraph they were read from, whatever URLs its subgraphs are at, and only of that one', () => {
    const supergraph = readFileSync(join(import.meta.dirname, '../../schema/supergraph.graphql'), 'utf8');
    const at = (host: string) => supergraph.replace(/(@join__graph\(name: "[^"]+", url: )"[^"]*"/g, `$1"http://${host}/graphql"`);
    // Nothing served: read from the text.
    const fromText = costAnnotations(supergraph);
    expect(fromText.fields.size + fromText.types.size).toBeGreaterThan(0);
    const file = join(tempDir('platform-costs-'), 'cost-annotations.json');
    writeFileSync(file, costAnnotationsFile(supergraph));
    try {
      serveBuiltCostAnnotations(file);
      expect(costAnnotations(at('a.internal:1'))).toEqual(fromText);
      // What a built start takes is the file: one with a weight of its own is read for this supergraph...
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), types: [['Marker', 7]] }));
      serveBuiltCostAnnotations(file);
      expect(costAnnotations(at('b.internal:2')).types).toEqual(new Map([['Marker', 7]]));
      // ...and not for another supergraph, whose own are read from its text.
      const changed = costAnnotations(at('c.internal:3').replace('@cost(weight: 300)', '@cost(weight: 301)'));
      expect(changed.types.has('Marker')).toBe(false);
      expect([...changed.fields.values(), ...changed.types.values()]).toContain(301);
    } finally {
      serveBuiltCostAnnotations(undefined);
    }
  });
});

/** The SDL a subgraph schema gives the router (`_service.sdl`). */
const serviceSdl = async (schema: GraphQLSchema) =>
  ((await execute({ schema, document: parse('{ _service { sdl } }') })).data as { _service: { sdl: string } })._service.sdl;

describe('a subgraph schema made from the SDL the build printed (dist/subgraphs.json)', () => {
  it('is the schema buildSubgraphSchema makes: the same types, fields, directives, resolvers and _service SDL', async () => {
    /** Every field and whether it has a resolver of its own, every entity's reference resolver, every abstract type's resolveType. */
    const resolvers = (schema: GraphQLSchema) =>
      Object.values(schema.getTypeMap()).flatMap((type) => [
        ...(isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()).map((f) => `${type.name}.${f.name}:${typeof f.resolve}`) : []),
        ...(isObjectType(type)
          ? [
              `${type.name}.reference:${typeof (type.extensions as { apollo?: { subgraph?: { resolveReference?: unknown } } }).apollo?.subgraph?.resolveReference}`,
            ]
          : []),
        ...(isUnionType(type) || isInterfaceType(type) ? [`${type.name}.resolveType:${typeof type.resolveType}`] : []),
      ]);
    const slow = await Promise.all(MODULES.map(async (m) => ({ name: m.name, schema: await m.buildSchema() })));
    const built = Object.fromEntries(await Promise.all(slow.map(async (s) => [s.name, builtSubgraph(await serviceSdl(s.schema))])));
    const file = join(tempDir('platform-subgraphs-'), 'subgraphs.json');
    writeFileSync(file, JSON.stringify(built));
    serveBuiltSubgraphs(file);
    try {
      for (const { name, schema } of slow) {
        const fast = await moduleNamed(name).buildSchema();
        expect(printSchemaWithDirectives(fast), name).toBe(printSchemaWithDirectives(schema));
        expect(resolvers(fast), name).toEqual(resolvers(schema));
        expect(await serviceSdl(fast), name).toBe(await serviceSdl(schema));
      }
    } finally {
      serveBuiltSubgraphs(undefined);
    }
  });
});

describe.runIf(!databaseUrl)('a new PGlite data folder', () => {
  it('is not made from a folder that is not a PGlite data folder', () => {
    expect(() => restoreDataFolder(tempDir('platform-not-a-snapshot-'), join(tempDir('platform-restore-'), 'pglite'))).toThrow(/not a PGlite data folder/);
  });

  it('is copied from a migrated snapshot folder when there is one, and resumed as it is afterwards', async () => {
    // A snapshot folder as the build makes one: PGlite's own data folder, here unpacked from the
    // migrated tarball the test workers start from.
    const snapshot = join(tempDir('platform-snapshot-'), 'pglite');
    await (await createPglite(snapshot, new Blob([readFileSync(inject('snapshotFile')!)]))).close();
    const dataDir = join(tempDir('platform-restore-'), 'data');
    const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', JWT_SECRET: 'test-secret-test-secret-test-secret-42' });
    restoreNewDataFoldersFrom(snapshot);
    try {
      // Only the kernel's migrations are asked for: the subgraphs' tables come from the snapshot.
      const platform = await startPlatform(config, [], { consume: false });
      const migrated = await platform.runtime.db.orm.em.getConnection().execute<{ module: string }[]>('select distinct module from kernel.schema_migration');
      expect(migrated.map((r) => r.module).sort()).toEqual(['kernel', ...MODULES.map((m) => m.name)].sort());
      await platform.runtime.db.orm.em.getConnection().execute('create table public.kept (id int)');
      await platform.stop();
      expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);

      const reopened = await startPlatform(config, [], { consume: false });
      expect(await reopened.runtime.db.orm.em.getConnection().execute('select count(*)::int as n from public.kept')).toEqual([{ n: 0 }]);
      await reopened.stop();

      // A copy: what one data folder did is not in the snapshot the next one starts from.
      const other = await startPlatform({ ...config, dataDir: join(tempDir('platform-restore-'), 'data') }, [], { consume: false });
      expect(await other.runtime.db.orm.em.getConnection().execute("select to_regclass('public.kept') as kept")).toEqual([{ kept: null }]);
      await other.stop();
    } finally {
      restoreNewDataFoldersFrom(undefined);
    }
  });
});

/** `npm start`'s process: `node scripts/launch.mjs main`, the bundle in dist/ (rebuilt first if a source changed since the last build). */
function launch(env: NodeJS.ProcessEnv) {
  let output = '';
  const child = spawn(process.execPath, [join(root, 'scripts/launch.mjs'), 'main'], { cwd: root, env });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => output, exited };
}

/** Until /readyz answers 200; what the process printed if it ends first. */
async function ready(base: string, child: ReturnType<typeof launch>['child'], output: () => string) {
  for (let i = 0; ; i++) {
    if (child.exitCode !== null || i > 1500) throw new Error(`did not become ready:\n${output()}`);
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * What `npm start` runs: the bundle in dist/, on a new data folder restored from the build's
 * snapshot, answering on every interface as the sources do; then again on the folder it left.
 */
describe.runIf(!databaseUrl)('npm start (the built server)', () => {
  it('starts on a new data folder with the demo company and serves REST, GraphQL and MCP', async () => {
    const dataDir = join(tempDir('platform-built-'), 'data');
    const port = await freePort();
    // Not the default claim expiry, which the build's snapshot made its queues with.
    const base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      NODE_ENV: 'development',
      OUTBOX_LOG: 'silent',
      JOB_EXPIRE_SECONDS: '90',
    };
    delete env.DATABASE_URL;
    delete env.JWT_SECRET;
    const { child, output, exited } = launch(env);
    try {
      await ready(base, child, output);
      expect(output()).not.toMatch(/composing the supergraph/);
      const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));

      const services = await fetch(`${base}/v6/customer-portal/services`, { headers: { 'x-company-id': credentials.companyId } });
      expect(services.status).toBe(200);
      expect((await services.json()).data.pagination.total).toBe(0);

      const company = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.apiKey}` },
        body: JSON.stringify({ query: '{ company { id name } }' }),
      });
      expect((await company.json()).data.company).toEqual({ id: credentials.companyId, name: 'Demo Studio' });
      // A mutation, through the gateway's Yoga.
      const staff = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.apiKey}` },
        body: JSON.stringify({ query: 'mutation { createStaffMember(input: { name: "Ana" }) { name } }' }),
      });
      expect(await staff.json()).toEqual({ data: { createStaffMember: { name: 'Ana' } } });

      const mcp = new Client({ name: 'startup-test', version: '1.0.0' });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${credentials.apiKey}` } } }),
      );
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toContain('create_service');
      // The registry the build worked out is the one the sources give for the same supergraph, and
      // the build counts the tool files among what it was made from (a changed tool rebuilds).
      const gateway = createGateway(readFileSync(join(root, 'dist/supergraph.graphql'), 'utf8'), { kind: 'http' });
      const fromSources = loadTools((await gateway.getSchema()) as GraphQLSchema);
      await gateway.dispose();
      expect(JSON.parse(readFileSync(join(root, 'dist/mcp-tools.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(fromSources)));
      expect(tools.map((t) => t.name).sort()).toEqual(fromSources.map((t) => t.name).sort());
      // The subgraph SDLs the built server made its schemas from are the ones the sources print,
      // with their documents as parsed; its cost annotations are those read from its supergraph.
      const builtSubgraphs = JSON.parse(readFileSync(join(root, 'dist/subgraphs.json'), 'utf8'));
      for (const m of MODULES) {
        const fromSources = builtSubgraph(await serviceSdl(await m.buildSchema()));
        expect(builtSubgraphs[m.name].sdl, m.name).toBe(fromSources.sdl);
        expect(builtSubgraphs[m.name].document, m.name).toEqual(JSON.parse(JSON.stringify(fromSources.document)));
      }
      expect(readFileSync(join(root, 'dist/cost-annotations.json'), 'utf8')).toBe(
        costAnnotationsFile(readFileSync(join(root, 'dist/supergraph.graphql'), 'utf8')),
      );
      const built = Object.keys(JSON.parse(readFileSync(join(root, 'dist/build.json'), 'utf8')).files);
      expect(built).toEqual(expect.arrayContaining(['facades/mcp/tools', 'facades/mcp/tools/list_services.graphql', 'facades/mcp/fragments']));
      const created = await mcp.callTool({ name: 'create_staff_member', arguments: { name: 'Mia' } });
      expect(created.isError).toBeFalsy();
      await mcp.close();

      // What REST serves, made from the SDL the build printed (dist/rest-schema.json), is what
      // the sources make of the API schema: the OpenAPI document (every route's parameters, bodies
      // and answers, the descriptions) is the one a server running the sources gives.
      const { url: sourceBase } = await testServer();
      const openApi = async (from: string, publicUrl: string) =>
        JSON.parse((await (await fetch(`${from}/openapi/connect-v6.openapi.json`)).text()).replaceAll(publicUrl, 'BASE'));
      expect(await openApi(base, `http://localhost:${port}`)).toEqual(await openApi(sourceBase, sourceBase));

      const docs = await fetch(`${base}/llms.txt`);
      expect(docs.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }

    // The build set up the job queues, subscriptions and schedules in the snapshot (a first start
    // only reads them), with the default expiry; the start gave its queues the configured one.
    const setUp = async (folder: string) => {
      const pglite = await createPglite(folder);
      try {
        // Ours: pg-boss keeps queues of its own (`__pgboss__…`).
        const queues = await pglite.query<{ name: string; expire_seconds: number }>(
          "select name, expire_seconds from pgboss.queue where name not like '\\_\\_pgboss\\_\\_%' order by name",
        );
        const subscriptions = await pglite.query<{ event: string; name: string }>('select event, name from pgboss.subscription order by event, name');
        const schedules = await pglite.query<{ name: string }>('select name from pgboss.schedule order by name');
        return { queues: queues.rows, subscriptions: subscriptions.rows, schedules: schedules.rows };
      } finally {
        await pglite.close();
      }
    };
    const snapshotCopy = join(tempDir('platform-snapshot-copy-'), 'pglite');
    restoreDataFolder(join(root, 'dist/pglite-snapshot'), snapshotCopy);
    const fromBuild = await setUp(snapshotCopy);
    const afterStart = await setUp(join(dataDir, 'pglite'));
    expect(fromBuild.queues.length).toBeGreaterThan(20);
    expect(fromBuild.subscriptions.length).toBeGreaterThan(10);
    expect(fromBuild.schedules.length).toBeGreaterThan(2);
    expect(new Set(fromBuild.queues.map((q) => q.expire_seconds))).toEqual(new Set([120]));
    expect(afterStart.queues).toEqual(fromBuild.queues.map((q) => ({ ...q, expire_seconds: 90 })));
    expect(afterStart.subscriptions).toEqual(fromBuild.subscriptions);
    expect(afterStart.schedules).toEqual(fromBuild.schedules);

    // Started again on the folder it left: what was written is there, and no second demo company.
    const again = launch(env);
    try {
      await ready(base, again.child, again.output);
      const { apiKey } = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
      const staffNow = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ query: '{ staffMembers { items { name } } }' }),
      });
      expect(((await staffNow.json()).data.staffMembers.items as { name: string }[]).map((s) => s.name).sort()).toEqual(['Ana', 'Mia']);
      expect(again.output()).not.toMatch(/Demo company created/);
    } finally {
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    }
  }, 240_000);
});
