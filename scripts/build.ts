import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { build as esbuild, type Plugin } from 'esbuild';

/**
 * `npm run build`, which `npm install` runs (`prepare`) and `npm start` runs first when a source
 * file changed since (scripts/launch.mjs):
 *
 * - each entry point bundled with its dependencies into one file, dist/<name>.cjs: no TypeScript
 *   compiler and about 4,000 fewer module files at start;
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
 * `import.meta` in a CommonJS bundle, as it was in the ES module bundle: the URL, folder and file
 * of the bundle, and `resolve` from there (MikroORM looks for optional extensions with it).
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
    // CommonJS, so that scripts/launch.mjs can run it as a vm.Script and keep V8's code for every
    // function start-up compiled, not only the top level an ES module's compile cache holds
    // (scripts/code-cache.mjs). In strict mode, as the ES module bundle was.
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    target: 'node24',
    // What `import.meta` was for our sources and the dependencies: the bundle's own file.
    define: { 'import.meta': '__importMeta' },
    // Class and function names as written (see cheapNames).
    keepNames: true,
    // No comments or blank space (a third less to read and parse); identifiers stay as written.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    charset: 'ascii',
    // GraphiQL's page (router/gateway.ts) is imported when first served, from node_modules.
    // The query planner is a native addon that finds its binary beside its module (router/fast-path.ts).
    external: ['@graphql-yoga/render-graphiql', '@graphql-hive/router-query-planner'],
    banner: { js: `"use strict";${IMPORT_META}` },
    plugins: [sourceDirectories(), graphqlModules(), optionalDependencies(), pgliteInPlace(), dependencyPatches()],
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  // Code cached for the previous bundles would only pile up (scripts/code-cache.mjs); so would the
  // ES module bundles and their compile cache of builds before the bundles were CommonJS.
  for (const old of ['.code-cache', '.compile-cache', ...Object.keys(ENTRIES).map((name) => `${name}.js`)]) rmSync(join(DIST, old), { recursive: true, force: true });
  // Each file replaced whole: a process running the previous build keeps reading a complete file.
  for (const file of result.outputFiles) {
    writeFileSync(`${file.path}.tmp`, ascii(sharedInterop(file.path, cheapNames(file.path, file.text))));
    renameSync(`${file.path}.tmp`, file.path);
  }

  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('node_modules/') && !f.includes(':'));
  const files = mtimes([...inputs, ...BUILD_FILES, ...toolFiles()], since);
  const snapshotFiles = mtimes([...inputs.filter((f) => f.includes('/migrations/')), ...SNAPSHOT_FILES], since);
  const snapshotChanged = !existsSync(SNAPSHOT) || !previous || !sameTimes(previous.snapshot, snapshotFiles);
  log(`bundled in ${Math.round(performance.now() - started)} ms`);
  const t = performance.now();
  const snapshot = [join(DIST, 'snapshot.cjs'), '--supergraph', SUPERGRAPH, '--tools', TOOLS, '--subgraphs', SUBGRAPHS, '--rest', REST_SCHEMA, '--costs', COSTS, ...(snapshotChanged ? ['--pglite', SNAPSHOT] : [])];
  execFileSync(process.execPath, snapshot, { stdio: 'inherit', env: { ...process.env, OUTBOX_LOG: 'silent' } });
  log(`supergraph, subgraph and REST SDLs, cost annotations, tool registry${snapshotChanged ? ' and migrated PGlite snapshot' : ''} in ${Math.round(performance.now() - t)} ms`);
  writeFileSync(`${MANIFEST}.tmp`, JSON.stringify({ files, snapshot: snapshotFiles } satisfies Manifest));
  renameSync(`${MANIFEST}.tmp`, MANIFEST);
}

/**
 * The bundle in ASCII. V8 keeps a script's source for as long as it runs, one byte a character if
 * every character is Latin-1 and two otherwise, and scripts/launch.mjs reads the file as one byte a
 * character (scripts/code-cache.mjs). esbuild escapes strings and names but not regular expressions
 * (a few dependencies have typographic characters in theirs); `\uXXXX` means the same there, and
 * replaces an identity escape (`\–`) too.
 */
function ascii(text: string): string {
  return text.replace(/(\\*)([^\u0000-\u007f])/g, (_, slashes: string, c: string) => `${slashes.slice(slashes.length % 2)}\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
    files.filter((f) => existsSync(join(ROOT, f))).map((f) => {
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
 * keepNames is needed: type-graphql names GraphQL types after their classes, and a bundle renames
 * a class whose name another module also uses (`Company2`, pg's `Client2`). But esbuild keeps
 * names by wrapping named closures in `__name(fn, "name")`, which defines `name` again each time
 * the closure is made, on hot paths too (graphql-tools makes two per resolved field; the router
 * spent 7% of its CPU there). Identifiers are not minified, so nearly every class and `function`
 * already has the name it is given: only the renamed ones (`Company2` → "Company") are defined
 * again. A closure made anonymous by the wrapping itself (`__name(() => …, "f")`) stays anonymous:
 * naming it would cost the defineProperty on every call of the enclosing function, and nothing
 * reads an arrow function's name but a stack trace. (Reading `prototype` to tell classes from
 * arrows would be worse: it materialises a prototype object for every plain function.)
 */
const NAME_HELPER = '__name=(target,value)=>__defProp(target,"name",{value,configurable:!0})';
const CHEAP_NAME_HELPER = '__name=(target,value)=>target.name===value||target.name===""?target:__defProp(target,"name",{value,configurable:!0})';

function cheapNames(path: string, text: string): string {
  return replaceHelper(path, text, { name: '__name', from: NAME_HELPER, to: CHEAP_NAME_HELPER, by: 'cheapNames' });
}

/**
 * A bundle with one of esbuild's helpers replaced. A helper that no longer reads as expected stops
 * the build, naming the function here that replaces it: the replacement would otherwise not apply.
 */
function replaceHelper(path: string, text: string, helper: { name: string; from: string; to: string; by: string }): string {
  if (!text.includes(helper.from)) {
    const found = new RegExp(`${helper.name}=.{0,100}`).exec(text)?.[0];
    throw new Error(`${path}: esbuild's ${helper.name} helper changed; update scripts/build.ts (${helper.by}): ${found}`);
  }
  return text.replace(helper.from, helper.to);
}

/**
 * A CommonJS module's require() of an ES module goes through esbuild's `__toCommonJS`, which makes
 * a new object with a getter for every export at each call: 53 CommonJS files of dist/main.cjs
 * require graphql (~450 exports). At start, 218 copies made 13,800 getters in 27–31 ms; with one
 * object per module, 156 make 3,660 in 9.5 ms (in-process timing, code cache warm). Node's own
 * require() answers one exports object per module; so does this one, made at the first require.
 * The first copy is as complete as a later one: an ES module's exports object gets all its getters
 * where the bundle defines it (`__export`), before any module runs, and its values are read
 * through them. Only `__reExport` (`export *` from a CommonJS module) adds exports later: a bundle
 * with one keeps esbuild's helper. (Most of the 156 left are `__toESM`'s, a CommonJS module's exports
 * copied for an ES importer, each import its own: kept, as one copy made while its module is
 * still loading in a require cycle would miss the exports it adds afterwards.)
 */
const TO_COMMONJS_HELPER = '__toCommonJS=mod=>__copyProps(__defProp({},"__esModule",{value:!0}),mod)';
const SHARED_TO_COMMONJS_HELPER =
  '__commonJsOf=new WeakMap,__toCommonJS=mod=>{let exports=__commonJsOf.get(mod);return exports||__commonJsOf.set(mod,exports=__copyProps(__defProp({},"__esModule",{value:!0}),mod)),exports}';

export function sharedInterop(path: string, text: string): string {
  if (!text.includes('__toCommonJS(') || text.includes('__reExport(')) return text;
  return replaceHelper(path, text, { name: '__toCommonJS', from: TO_COMMONJS_HELPER, to: SHARED_TO_COMMONJS_HELPER, by: 'sharedInterop' });
}

/**
 * graphql-js once, as ES modules. Node would give importers its .mjs files and require() its .js
 * files (two copies, which graphql refuses); a bundle resolves both to the CommonJS files, which
 * ES module importers then reach through getters on a namespace object (`graphql.isNonNullType`
 * is a function call: 3% of a request's CPU). Every `graphql` and `graphql/...` here resolves
 * to the .mjs file; require() gets the module's namespace.
 */
function graphqlModules(): Plugin {
  return {
    name: 'graphql-modules',
    setup(build) {
      build.onResolve({ filter: /^graphql(\/|$)/ }, async (args) => {
        if (args.pluginData?.probing) return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { probing: true } });
        if (found.errors.length || !found.path.endsWith('.js')) return undefined;
        const mjs = found.path.replace(/\.js$/, '.mjs');
        return existsSync(mjs) ? { path: mjs } : undefined;
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

/**
 * Dependency files read differently in a bundle, each change checked to still apply:
 * - A TypeError thrown by top-level code makes V8 re-parse the whole enclosing function to word its
 *   message, which in a bundle is the whole bundle (~150 ms at start).
 *   @graphql-mesh/hmac-upstream-signature inlines get-intrinsic, which reads `null.error` once to
 *   get at Error.prototype; an explicit TypeError gives the same prototype without the re-parse.
 * - graphql-js outside NODE_ENV=production checks, each time an `instanceof` is false (isObjectType
 *   of a scalar...), whether the value comes from another copy of graphql: 5% of a request's CPU
 *   in development. A bundle holds one copy (graphqlModules), so the check has nothing to find.
 * - type-graphql's `getParams` sorts a resolver's parameter list in place on every call of every
 *   resolver: sorted after the first call, each later sort only allocated (a seventh of what a
 *   list of 20 services allocated, for its ~140 field-resolver calls). It sorts when out of order.
 * - Reading the global `Request`, `Response`, `Headers`, `fetch` or `FormData` makes Node compile
 *   its own fetch implementation (undici, ~50–60 ms of a start on a 2-core guest), which nothing
 *   needs at start. Two copies of @whatwg-node/server read them as they load or build an adapter:
 *   fets' copy (under the gateway and SOFA) keeps a table of the native classes, now read when
 *   used; Yoga's compares its Request class with the native one to choose an abort controller,
 *   now on its first request. (The MCP SDK's transport, which reads them too, is loaded on first
 *   use: facades/mcp/server.ts.)
 */
const PATCHES: { file: RegExp; edits: { from: RegExp; to: string }[] }[] = [
  { file: /[\\/]@graphql-mesh[\\/]hmac-upstream-signature[\\/]dist[\\/]index\.js$/, edits: [{ from: /\bnull\.error;/g, to: 'throw new TypeError("null.error");' }] },
  { file: /[\\/]graphql[\\/]jsutils[\\/]instanceOf\.mjs$/, edits: [{ from: /const isProduction =[^;]*;/, to: 'const isProduction = true;' }] },
  {
    file: /[\\/]type-graphql[\\/]build[\\/]esm[\\/]resolvers[\\/]helpers\.js$/,
    edits: [
      {
        from: /export function getParams\(params, resolverData, globalValidate, globalValidateFn\) \{\s*const paramValues = params\s*\.sort\(\(a, b\) => a\.index - b\.index\)/,
        to: [
          'function inIndexOrder(params) {',
          '  for (let i = 1; i < params.length; i++) if (params[i - 1].index > params[i].index) return params.sort((a, b) => a.index - b.index);',
          '  return params;',
          '}',
          'export function getParams(params, resolverData, globalValidate, globalValidateFn) {',
          '  const paramValues = inIndexOrder(params)',
        ].join('\n'),
      },
    ],
  },
  {
    file: /[\\/]fets[\\/]node_modules[\\/]@whatwg-node[\\/]server[\\/](esm|cjs)[\\/]createServerAdapter\.js$/,
    edits: [{ from: /^(\s+)(\w+): (globalThis\.\w+(?: \|\| \w+\.\w+)?),$/gm, to: '$1get $2() { return $3; },' }],
  },
  {
    // fets' copy matches this too, but took the entry above: esbuild loads a file with the first
    // onLoad callback (in the order set up) that returns its contents.
    file: /[\\/]@whatwg-node[\\/]server[\\/](esm|cjs)[\\/]createServerAdapter\.js$/,
    edits: [
      {
        from: /const useCustomAbortCtrl = (options\?\.__useCustomAbortCtrl == null\s*\? fetchAPI\.Request !== globalThis\.Request\s*: options\.__useCustomAbortCtrl);/,
        to: 'let customAbortCtrl;\n    const useCustomAbortCtrl = () => (customAbortCtrl ??= $1);',
      },
      { from: /(nodeRequest, fetchAPI, (?:undefined|nodeResponse), useCustomAbortCtrl)\)/g, to: '$1())' },
      { from: /const controller = useCustomAbortCtrl$/m, to: 'const controller = useCustomAbortCtrl()' },
    ],
  },
];

/**
 * PGlite in the bundle, its modules still finding their files where npm put them. PGlite's
 * JavaScript (~0.5 MB) outside the bundle was compiled again at every start, each function when
 * first called, as Node's compile cache holds a module's top level only: ~20–30 ms of a start (its
 * Emscripten module factory alone 16–28 ms), where the bundle's code cache (scripts/code-cache.mjs)
 * holds every function start-up ran. Its modules locate its WebAssembly, file-system bundle and
 * extensions (`new URL('./pglite.wasm', import.meta.url)`, `../btree_gist.tar.gz` for an
 * extension) from `import.meta.url`, which in the bundle would be the bundle's own file: each
 * module's is its own file in the installed package instead, found when it runs.
 */
function pgliteInPlace(): Plugin {
  return {
    name: 'pglite-in-place',
    setup(build) {
      build.onLoad({ filter: /[\\/]@electric-sql[\\/]pglite[\\/]dist[\\/].*\.js$/ }, (args) => {
        const dist = `${sep}dist${sep}`;
        const inDist = args.path.slice(args.path.lastIndexOf(dist) + dist.length).split(sep).join('/');
        const own = `new URL(${JSON.stringify(`./${inDist}`)}, __importMeta.resolve("@electric-sql/pglite")).href`;
        return { contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', own), loader: 'js' };
      });
    },
  };
}

function dependencyPatches(): Plugin {
  return {
    name: 'dependency-patches',
    setup(build) {
      for (const patch of PATCHES) {
        build.onLoad({ filter: patch.file }, (args) => {
          let text = readFileSync(args.path, 'utf8');
          for (const { from, to } of patch.edits) {
            if (!from.test(text)) throw new Error(`${args.path} no longer contains ${from}: update scripts/build.ts (PATCHES)`);
            from.lastIndex = 0;
            text = text.replace(from, to);
          }
          return { contents: text, loader: 'js' };
        });
      }
    },
  };
}

if (import.meta.filename === process.argv[1]) {
  const reason = process.argv.indexOf('--reason');
  await build({ reason: reason > 0 ? process.argv[reason + 1] : undefined });
}
