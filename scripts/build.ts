import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build as esbuild, type Plugin } from 'esbuild';

/**
 * `npm run build`, which `npm install` runs (`prepare`) and `npm start` runs first when a source
 * file changed since (scripts/launch.mjs):
 *
 * - each entry point bundled with its dependencies into one file, dist/<name>.cjs, as esbuild writes
 *   it: no TypeScript compiler at start and about 4,000 fewer module files to find and read
 *   (docs/decisions/0010-the-bundle.md says why, what is left out of it and why);
 * - dist/supergraph.graphql, the supergraph checked against the bundled subgraphs (router/compose.ts);
 * - dist/mcp-tools.json, the MCP tool registry worked out from it (facades/mcp/registry.ts);
 * - dist/subgraphs.json, each subgraph's SDL and its parsed document, which a built start makes its
 *   schema from (subgraphs/kernel/federation.ts), dist/rest-schema.json, what REST serves of the API
 *   schema, parsed (facades/rest/facade.ts), and dist/cost-annotations.json, the supergraph's `@cost`
 *   and `@listSize` (router/limits.ts);
 * - dist/pglite-snapshot/, a migrated, empty PGlite data folder a new DATA_DIR is copied from
 *   (subgraphs/kernel/database.ts), remade when a migration changes (both by scripts/snapshot.ts);
 * - dist/build.json, the files the build read and their modification times (what launch.mjs checks).
 *
 * No dependency's code is changed on the way: what is bundled is what npm installed.
 * It runs under plain Node 24 (type stripping): no TypeScript-only syntax here.
 */

export const ROOT = join(import.meta.dirname, '..');
export const DIST = join(ROOT, 'dist');
export const MANIFEST = join(DIST, 'build.json');
export const SNAPSHOT = join(DIST, 'pglite-snapshot');
export const SUPERGRAPH = join(DIST, 'supergraph.graphql');
export const TOOLS = join(DIST, 'mcp-tools.json');
export const SUBGRAPHS = join(DIST, 'subgraphs.json');
export const REST_SCHEMA = join(DIST, 'rest-schema.json');
export const COSTS = join(DIST, 'cost-annotations.json');

export const ENTRIES: Record<string, string> = {
  main: 'router/main.ts',
  distributed: 'router/distributed.ts',
  'subgraph-server': 'router/subgraph-server.ts',
  jobs: 'scripts/jobs.ts',
  snapshot: 'scripts/snapshot.ts',
};

/** Read by the build without being bundled: a change to one of these rebuilds too. */
const BUILD_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.ts'];

/**
 * The MCP tools and their fragments, read at run time but made into dist/mcp-tools.json by the
 * build: each file, and each folder (its time changes when a file is added or removed).
 */
const TOOL_FOLDERS = ['facades/mcp/tools', 'facades/mcp/fragments'];
const toolFiles = () => TOOL_FOLDERS.flatMap((dir) => [dir, ...readdirSync(join(ROOT, dir)).map((f) => `${dir}/${f}`)]);

/** What the snapshot depends on besides the migrations themselves. */
const SNAPSHOT_FILES = ['package-lock.json', 'scripts/snapshot.ts', 'router/platform.ts', 'subgraphs/kernel/database.ts'];

/**
 * Packages the bundles load from node_modules instead of holding them (docs/decisions/0010-the-bundle.md):
 * - graphql: one copy for the whole process, the one npm installed, as Node resolves it for every
 *   importer; in the bundle each of the ~300 modules that import it would get its own copy of its
 *   ~450 exports (esbuild's CommonJS interop), made at every start.
 * - @electric-sql/pglite: it finds its WebAssembly, file-system bundle and extensions beside its own
 *   modules, which in a bundle would be beside the bundle.
 * - @graphql-mesh/hmac-upstream-signature: it reads `null.error` at its top level (get-intrinsic, inlined),
 *   and V8 words the TypeError by parsing again the function it was thrown in, which in a bundle is
 *   the whole bundle: ~0.15 s of each start.
 * - @graphql-yoga/render-graphiql: GraphiQL's page, imported when first served (router/gateway.ts).
 * - @graphql-hive/router-query-planner: a native addon that finds its binary beside its module.
 */
const EXTERNAL = [
  'graphql',
  '@electric-sql/pglite',
  '@graphql-mesh/hmac-upstream-signature',
  '@graphql-yoga/render-graphiql',
  '@graphql-hive/router-query-planner',
];

/**
 * `import.meta` in a CommonJS bundle: the URL, folder and file of the bundle, and `resolve` from
 * there (MikroORM looks for optional extensions with it). CommonJS because router/distributed.ts
 * and the tests know a built entry point by its `.cjs`.
 */
const IMPORT_META =
  'const __importMeta = { url: require("node:url").pathToFileURL(__filename).href, dirname: __dirname, filename: __filename, resolve: (s) => require("node:url").pathToFileURL(require.resolve(s)).href };';

export interface Manifest {
  /** Project-relative path → modification time (ms) of every file the bundles were built from. */
  files: Record<string, number>;
  /** The same for the files the snapshot was made from. */
  snapshot: Record<string, number>;
}

export async function build(options: { reason?: string; quiet?: boolean } = {}): Promise<void> {
  const log = (line: string) => options.quiet || console.log(`[build] ${line}`);
  const started = performance.now();
  const since = Date.now();
  log(`bundling ${Object.keys(ENTRIES).join(', ')} into dist/${options.reason ? ` (${options.reason})` : ''}`);
  mkdirSync(DIST, { recursive: true });
  const previous = readManifest();
  const result = await esbuild({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: DIST,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    target: 'node24',
    define: { 'import.meta': '__importMeta' },
    // type-graphql and MikroORM name GraphQL types and entities after their classes; a bundle
    // renames a class whose name another module also uses (`Company2`) unless told to keep names.
    keepNames: true,
    // No comments or blank space (a third less to read and parse); identifiers stay as written.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    external: EXTERNAL,
    banner: { js: `"use strict";${IMPORT_META}` },
    plugins: [sourceDirectories(), optionalDependencies()],
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  // The compile cache of the bundles being replaced would only pile up (scripts/launch.mjs); so would
  // the code cache earlier builds kept in dist/.code-cache.
  for (const old of ['.compile-cache', '.code-cache']) rmSync(join(DIST, old), { recursive: true, force: true });
  // Each file replaced whole: a process running the previous build keeps reading a complete file.
  for (const file of result.outputFiles) {
    writeFileSync(`${file.path}.tmp`, file.text);
    renameSync(`${file.path}.tmp`, file.path);
  }

  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.split('/').includes('node_modules') && !f.includes(':'));
  const files = mtimes([...inputs, ...BUILD_FILES, ...toolFiles()], since);
  const snapshotFiles = mtimes([...inputs.filter((f) => f.includes('/migrations/')), ...SNAPSHOT_FILES], since);
  const snapshotChanged = !existsSync(SNAPSHOT) || !previous || !sameTimes(previous.snapshot, snapshotFiles);
  log(`bundled in ${Math.round(performance.now() - started)} ms`);
  const t = performance.now();
  const snapshot = [
    join(DIST, 'snapshot.cjs'),
    '--supergraph',
    SUPERGRAPH,
    '--tools',
    TOOLS,
    '--subgraphs',
    SUBGRAPHS,
    '--rest',
    REST_SCHEMA,
    '--costs',
    COSTS,
    ...(snapshotChanged ? ['--pglite', SNAPSHOT] : []),
  ];
  execFileSync(process.execPath, snapshot, { stdio: 'inherit', env: { ...process.env, OUTBOX_LOG: 'silent' } });
  log(
    `supergraph, subgraph and REST SDLs, cost annotations, tool registry${snapshotChanged ? ' and migrated PGlite snapshot' : ''} in ${Math.round(performance.now() - t)} ms`,
  );
  writeFileSync(`${MANIFEST}.tmp`, JSON.stringify({ files, snapshot: snapshotFiles } satisfies Manifest));
  renameSync(`${MANIFEST}.tmp`, MANIFEST);
}

function readManifest(): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(MANIFEST, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Modification times; a file changed while the build ran counts as changed (0) for the next start. */
function mtimes(files: string[], since: number): Record<string, number> {
  return Object.fromEntries(
    files
      .filter((f) => existsSync(join(ROOT, f)))
      .map((f) => {
        const time = statSync(join(ROOT, f)).mtimeMs;
        return [f, time >= since ? 0 : time];
      }),
  );
}

function sameTimes(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

/**
 * `import.meta.dirname` in our sources means the folder of the source file (facades/mcp/tools,
 * docs/, schema/ are read at run time from there); in a bundle it would be dist/. Rewritten to
 * that folder, relative to the bundle so the project can move.
 */
function sourceDirectories(): Plugin {
  return {
    name: 'source-directories',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes('node_modules')) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.dirname')) return undefined;
        const folder = relative(DIST, dirname(args.path)).split('\\').join('/');
        return { contents: text.replaceAll('import.meta.dirname', `(import.meta.dirname + ${JSON.stringify(`/${folder}`)})`), loader: 'ts' };
      });
    },
  };
}

/**
 * A dependency's optional import that is not installed (type-graphql's `class-validator`, pg's
 * `pg-native`) stays an import, failing only if it is ever reached, as it would unbundled.
 */
function optionalDependencies(): Plugin {
  return {
    name: 'optional-dependencies',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData?.probing || args.path.startsWith('node:')) return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { probing: true } });
        return found.errors.length ? { path: args.path, external: true } : undefined;
      });
    },
  };
}

if (import.meta.filename === process.argv[1]) {
  const reason = process.argv.indexOf('--reason');
  await build({ reason: reason > 0 ? process.argv[reason + 1] : undefined });
}
