// Runs a CommonJS bundle of dist/ with V8's compiled code from an earlier run of the same bundle.
//
// Node's own compile cache (module.enableCompileCache) stores the code V8 makes when a file is
// compiled: for a bundle, its top level only. Every function start-up then calls is compiled
// again at each start (V8's lazy compilation: ~0.14 s of a 1.2 s start, by `perf`). A vm.Script's
// cache made after start-up (`createCachedData`, 7.7 MB for dist/main.cjs) holds those functions
// too; with it the server started on an existing data folder in 0.94–1.04 s instead of 1.14–1.28 s
// with Node's cache (`node scripts/launch.mjs main`, 2-core VM, Node 24).
//
// The cache is made once per bundle, Node version and V8 flags (V8 refuses code made under
// other flags): when the program says its start-up is over (STARTUP_DONE, router/startup.ts) and
// no cache was used. The build removes dist/.code-cache with the bundles it replaces.
// Plain JavaScript, like launch.mjs: nothing to compile before the bundle.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

/** What a program calls (through globalThis) when its start-up is over; see router/startup.ts. */
export const STARTUP_DONE = Symbol.for('service-platform.startup-done');

/** Runs `file` as CommonJS. Returns how its cache went: 'used', 'absent' or 'rejected' (by V8). */
export function runBundle(file, cacheDir) {
  const source = readFileSync(file, 'utf8');
  const { size, mtimeMs } = statSync(file);
  // V8 checks the flags and the source's length, not its text: the file's time is in the key.
  const key = createHash('sha256')
    .update(JSON.stringify([process.version, process.arch, process.execArgv, process.env.NODE_OPTIONS ?? '', size, mtimeMs]))
    .digest('hex')
    .slice(0, 16);
  const cacheFile = join(cacheDir, `${basename(file)}-${key}.bin`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {}
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    // import() in the bundle (external packages, a dependency's optional module) as in a module.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const cache = !cachedData ? 'absent' : script.cachedDataRejected ? 'rejected' : 'used';
  const save = () => {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(`${cacheFile}.${process.pid}`, script.createCachedData());
    renameSync(`${cacheFile}.${process.pid}`, cacheFile);
  };
  globalThis[STARTUP_DONE] = () => {
    delete globalThis[STARTUP_DONE];
    // After the answer that said so has gone out; a failure to write only costs the next start time.
    if (cache !== 'used') setImmediate(() => {
      try {
        save();
      } catch (error) {
        console.error(`[launch] could not keep the compiled code in ${cacheDir}: ${error.message}`);
      }
    });
  };
  quietAboutTheDefaultLoader();
  const exports = {};
  script.runInThisContext()(exports, module.createRequire(file), { exports }, file, dirname(file));
  return { cache };
}

/**
 * Node says once, at the first import() of such a script, that USE_MAIN_CONTEXT_DEFAULT_LOADER is
 * experimental; it is the documented way for a vm.Script to import as its process does, chosen
 * here, and the warning would be a line in every server's log. Other warnings pass.
 */
let quiet = false;
function quietAboutTheDefaultLoader() {
  if (quiet) return;
  quiet = true;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    if (String(warning?.message ?? warning).startsWith('vm.USE_MAIN_CONTEXT_DEFAULT_LOADER is an experimental feature')) return;
    return emitWarning.call(this, warning, ...rest);
  };
}
