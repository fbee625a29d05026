import 'reflect-metadata';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { graphqlSync, parse, type GraphQLSchema } from 'graphql';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { loadTools } from '../facades/mcp/registry.ts';
import { restSchemaOf } from '../facades/rest/facade.ts';
import { checkedInSupergraph, composeSupergraph, subgraphUrl } from '../router/compose.ts';
import { createGateway } from '../router/gateway.ts';
import { costAnnotationsFile } from '../router/limits.ts';
import { startPlatform } from '../router/platform.ts';
import { MODULES, SUBGRAPH_PORTS } from '../router/modules.ts';
import { runMain } from '../router/startup.ts';
import { loadConfig } from '../subgraphs/kernel/config.ts';
import { createPglite } from '../subgraphs/kernel/database.ts';
import { builtSubgraph } from '../subgraphs/kernel/federation.ts';

/**
 * `node dist/snapshot.cjs [--supergraph FILE [--tools FILE] [--subgraphs FILE] [--rest FILE] [--costs FILE]] [--pglite FOLDER]`, run by
 * scripts/build.ts with the bundle it just built: what a built start would otherwise work out each
 * time.
 *
 * --supergraph: schema/supergraph.graphql if the bundled subgraphs still print as schema/*.graphql,
 *   composed from them otherwise (with a warning: `npm run compose` is due), for router/compose.ts.
 * --subgraphs: each subgraph's SDL as @apollo/subgraph printed it (its `_service.sdl`) and its
 *   parsed document, as JSON by name, which a built start makes the subgraph schemas from
 *   (subgraphs/kernel/federation.ts).
 * --rest: the schema the REST facade serves of that supergraph's API schema, its SDL parsed, as
 *   JSON, which a built start reads instead of filtering the API schema (facades/rest/facade.ts).
 * --costs: that supergraph's `@cost` and `@listSize`, as JSON, for router/limits.ts.
 * --tools: the MCP tool registry worked out from that supergraph's API schema, as JSON, for
 *   facades/mcp/registry.ts (a tool that does not validate fails the build).
 * --pglite: a migrated, empty PGlite data folder, which a new DATA_DIR is copied from
 *   (subgraphs/kernel/database.ts). Every migration, the job queue's schema and its queues, event
 *   subscriptions and schedules, as a start makes them (a first start setting up 31 queues, 21
 *   subscriptions and 5 schedules sent ~300 statements more than a later one); no start-up hooks,
 *   so no demo company: the first start seeds its own.
 */
const argument = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const supergraphFile = argument('--supergraph');
const toolsFile = argument('--tools');
const subgraphsFile = argument('--subgraphs');
const restFile = argument('--rest');
const costsFile = argument('--costs');
const pgliteFolder = argument('--pglite');
if (!supergraphFile && !pgliteFolder)
  throw new Error('Usage: node dist/snapshot.cjs [--supergraph FILE [--tools FILE] [--subgraphs FILE] [--rest FILE] [--costs FILE]] [--pglite FOLDER]');

/** Written whole or not at all. */
function write(file: string, data: string | Buffer) {
  writeFileSync(`${file}.tmp`, data);
  renameSync(`${file}.tmp`, file);
}

runMain(async () => {
  let supergraph: string | undefined;
  if (supergraphFile) {
    const subgraphs = await Promise.all(
      MODULES.map(async (m) => ({ name: m.name, schema: await m.buildSchema(), url: subgraphUrl(m.name, SUBGRAPH_PORTS[m.name], {}) })),
    );
    let sdl = checkedInSupergraph(subgraphs);
    if (!sdl) {
      console.warn('[build] schema/*.graphql differ from the subgraphs: the build composed the supergraph (run `npm run compose` to update them)');
      sdl = (await composeSupergraph(subgraphs)).supergraphSdl;
    }
    write(supergraphFile, sdl);
    supergraph = sdl;
    if (subgraphsFile) {
      const printed = subgraphs.map((s) => [
        s.name,
        builtSubgraph((graphqlSync({ schema: s.schema, source: '{ _service { sdl } }' }).data as { _service: { sdl: string } })._service.sdl),
      ]);
      write(subgraphsFile, JSON.stringify(Object.fromEntries(printed)));
    }
    if (costsFile) write(costsFile, costAnnotationsFile(sdl));
  }

  if (toolsFile || restFile) {
    if (!supergraph) throw new Error('--tools and --rest need --supergraph: both are worked out from the API schema of that supergraph');
    const gateway = createGateway(supergraph, { kind: 'http' });
    const apiSchema = (await gateway.getSchema()) as GraphQLSchema;
    if (toolsFile) write(toolsFile, JSON.stringify(loadTools(apiSchema)));
    if (restFile) write(restFile, JSON.stringify(parse(printSchemaWithDirectives(restSchemaOf(apiSchema)), { noLocation: true })));
    await gateway.dispose();
  }

  if (pgliteFolder) {
    const dataDir = mkdtempSync(join(tmpdir(), 'platform-snapshot-'));
    const made = `${pgliteFolder}.new`;
    const previous = `${pgliteFolder}.old`;
    rmSync(made, { recursive: true, force: true });
    try {
      const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'development', JWT_SECRET: 'snapshot-only-snapshot-only-snapshot-only' });
      const pglite = await createPglite(made);
      const platform = await startPlatform(
        config,
        MODULES.map((m) => ({ ...m, onStart: undefined })),
        { pglite },
      );
      await platform.stop();
      await pglite.query('checkpoint');
      await pglite.close();
      // Replaced by renames: a start copying the previous folder meanwhile fails (its copy is gone)
      // rather than copying a half-made one.
      rmSync(previous, { recursive: true, force: true });
      if (existsSync(pgliteFolder)) renameSync(pgliteFolder, previous);
      renameSync(made, pgliteFolder);
      rmSync(previous, { recursive: true, force: true });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(made, { recursive: true, force: true });
    }
  }
});
