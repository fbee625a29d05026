// How the npm scripts run the product (`npm start`, `npm run start:distributed`, `start:router`,
// `start:subgraph`, `jobs`): `node scripts/launch.mjs <entry> [args]` runs dist/<entry>.cjs in this
// process, after rebuilding dist/ (scripts/build.ts) if a file it was built from changed since or it
// is missing, with the code V8 compiled for it in an earlier run (scripts/code-cache.mjs).
// Plain JavaScript so the check costs a few stat calls and nothing to compile.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { runBundle } from './code-cache.mjs';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const [requested, ...args] = process.argv.slice(2);
if (!requested) throw new Error('Usage: node scripts/launch.mjs <main|router|distributed|subgraph-server|jobs> [arguments]');
// `router` (`npm run start:router`): the router alone over subgraph processes, which is `main` with
// TOPOLOGY=distributed, under the V8 flags of a process without PGlite (package.json says which).
const entry = requested === 'router' ? 'main' : requested;
if (requested === 'router') {
  if ((process.env.TOPOLOGY || 'distributed') !== 'distributed') {
    console.error(`npm run start:router runs the router over subgraph processes (TOPOLOGY=distributed), not TOPOLOGY=${process.env.TOPOLOGY}; npm start runs the embedded topology`);
    process.exit(1);
  }
  process.env.TOPOLOGY = 'distributed';
}
const file = join(dist, `${entry}.cjs`);

const reason = staleness();
// In a process of its own, so none of the build's memory stays with the server.
if (reason) execFileSync(process.execPath, [join(import.meta.dirname, 'build.ts'), '--reason', reason], { stdio: 'inherit' });

// The packages the bundle leaves out (GraphiQL's page, the query planner's native addon loader) are
// compiled from Node's cache.
process.env.NODE_COMPILE_CACHE ??= join(dist, '.compile-cache');
module.enableCompileCache?.(process.env.NODE_COMPILE_CACHE);
// The entry sees the command line it would have as `node dist/<entry>.cjs [args]`.
process.argv.splice(1, process.argv.length - 1, file, ...args);
const topology = process.env.TOPOLOGY || 'embedded';
const database = process.env.DATABASE_URL ? 'postgresql' : 'pglite';
// PGlite's memory, made while the heap is nearly empty (subgraphs/kernel/database.ts says why), of
// the size PGlite's module asks for (128 MB, growing to 2 GB).
if (entry === 'main' && topology === 'embedded' && database === 'pglite') globalThis[Symbol.for('service-platform.pglite-memory')] = new WebAssembly.Memory({ initial: 2048, maximum: 32768 });
runBundle(file, join(dist, '.code-cache'), {
  // A start-up's code depends on the topology and the database (scripts/code-cache.mjs): one cache each.
  variant: `${topology} ${database}`,
  afterStartup: collectStartupGarbage,
});

/**
 * Start-up leaves garbage behind that an idle server would keep for as long as nothing allocates:
 * the bundle's and PGlite's file buffers, V8's code cache, what building the schemas left. With
 * `--expose-gc` (the npm scripts), one collection a moment after start-up gives that memory back
 * (scripts/code-cache.mjs says why it is given back to the system and not only freed). The
 * "last resort" flavour, the one V8 runs under memory pressure, also compacts the old generation,
 * releases the pages it keeps for reuse and gives back the young generation's empty pages (16 MB
 * resident with under 1 MB in use): RSS 1 s after start 220–229 MB against 240–264 with a plain
 * full collection (six starts each, alternating). It pauses the server once, 0.11–0.13 s (the plain
 * one ~2 ms); a moment after start-up, so that the answers start-up kept waiting (a readiness
 * check) go first.
 */
function collectStartupGarbage() {
  if (typeof globalThis.gc === 'function') setTimeout(() => globalThis.gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }), 100).unref();
}

/** Why dist/ must be rebuilt first, or undefined when it is current. */
function staleness() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dist, 'build.json'), 'utf8'));
    statSync(file);
  } catch {
    return 'no build yet';
  }
  for (const [path, mtime] of Object.entries(manifest.files)) {
    let now;
    try {
      now = statSync(join(root, path)).mtimeMs;
    } catch {
      return `${path} is gone`;
    }
    if (now !== mtime) return `${path} changed`;
  }
  return undefined;
}
