// How the npm scripts run the product (`npm start`, `npm run start:distributed`, `start:router`,
// `start:subgraph`, `jobs`): `node scripts/launch.mjs <entry> [args]` runs dist/<entry>.cjs in this
// process, after rebuilding dist/ (scripts/build.ts) if a file it was built from changed since or it
// is missing. Node's own compile cache (module.enableCompileCache) keeps the code V8 compiled for
// the bundle and the packages it loads from node_modules between starts.
// Plain JavaScript so the check costs a few stat calls and nothing to compile.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const [requested, ...args] = process.argv.slice(2);
if (!requested) throw new Error('Usage: node scripts/launch.mjs <main|router|distributed|subgraph-server|jobs> [arguments]');
// `router` (`npm run start:router`): the router alone over subgraph processes, which is `main` with
// TOPOLOGY=distributed.
const entry = requested === 'router' ? 'main' : requested;
if (requested === 'router') {
  if ((process.env.TOPOLOGY || 'distributed') !== 'distributed') {
    console.error(
      `npm run start:router runs the router over subgraph processes (TOPOLOGY=distributed), not TOPOLOGY=${process.env.TOPOLOGY}; npm start runs the embedded topology`,
    );
    process.exit(1);
  }
  process.env.TOPOLOGY = 'distributed';
}
const file = join(dist, `${entry}.cjs`);

const reason = staleness();
if (reason && !buildToolsInstalled()) {
  // A production install (`npm ci --omit=dev`, the Docker image) has no esbuild: it runs what was built.
  if (reason === 'no build yet')
    throw new Error(`${file} is missing and the build's tools (devDependencies) are not installed: run \`npm run build\` where they are`);
  console.warn(`[launch] dist/ is older than the sources (${reason}) and the build's tools are not installed: running it as built`);
} else if (reason) {
  // In a process of its own, so none of the build's memory stays with the server.
  execFileSync(process.execPath, [join(import.meta.dirname, 'build.ts'), '--reason', reason], { stdio: 'inherit' });
}

// Where NODE_COMPILE_CACHE says, or beside the bundles (the build empties it when it replaces them).
module.enableCompileCache(process.env.NODE_COMPILE_CACHE || join(dist, '.compile-cache'));
// The entry sees the command line it would have as `node dist/<entry>.cjs [args]`.
process.argv.splice(1, process.argv.length - 1, file, ...args);
module.createRequire(import.meta.url)(file);

function buildToolsInstalled() {
  try {
    import.meta.resolve('esbuild');
    return true;
  } catch {
    return false;
  }
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
