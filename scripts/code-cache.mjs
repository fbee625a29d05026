// Runs a CommonJS bundle of dist/ with V8's compiled code from an earlier run of the same bundle.
//
// Node's own compile cache (module.enableCompileCache) stores the code V8 makes when a file is
// compiled: for a bundle, its top level only. Every function start-up then calls is compiled
// again at each start (V8's lazy compilation: ~0.14 s of a 1.2 s start, by `perf`). A vm.Script's
// cache made after start-up (`createCachedData`, 7.7 MB for dist/main.cjs) holds those functions
// too; with it the server started on an existing data folder in 0.94–1.04 s instead of 1.14–1.28 s
// with Node's cache (`node scripts/launch.mjs main`, 2-core VM, Node 24).
//
// The cache is made once per bundle, Node version, V8 flags (V8 refuses code made under other
// flags) and variant (what the launcher says decides which code a start-up runs: the same bundle
// started as the distributed router compiles other functions than the embedded server on PGlite,
// and a cache made by one, used by the other, left it compiling lazily again: 1.29 against 1.14 s
// through npm start): when the program says its start-up is over (STARTUP_DONE,
// router/startup.ts) and no cache was used. The build removes dist/.code-cache with the bundles
// it replaces.
// Plain JavaScript, like launch.mjs: nothing to compile before the bundle.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { basename, dirname, join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

/** What a program calls (through globalThis) when its start-up is over; see router/startup.ts. */
export const STARTUP_DONE = Symbol.for('service-platform.startup-done');

/**
 * Runs `file` as CommonJS, without V8's optimising compilers until its start-up is over (see
 * optimisersOff). Returns how its cache went: 'used', 'absent' or 'rejected' (by V8).
 * `afterStartup` runs once the program's start-up is over, its cache written and the optimising
 * compilers on.
 */
export function runBundle(file, cacheDir, { variant = '', afterStartup = () => {} } = {}) {
  // Before the cache is read: V8 takes a cache only under the flags it was made with, and it is
  // made while these are off.
  const optimisersOn = optimisersOff();
  // The function CommonJS wraps a module in, read as one string with the file: a wrapper added to
  // the text afterwards would be a second 10 MB string, made when V8 compiles it.
  const source = readInPieces(file, '(function (exports, require, module, __filename, __dirname) {', '\n})');
  const { size, mtimeMs } = statSync(file);
  // V8 checks the flags and the source's length, not its text: the file's time is in the key.
  const key = createHash('sha256')
    .update(JSON.stringify([process.version, process.arch, process.execArgv, process.env.NODE_OPTIONS ?? '', size, mtimeMs, variant]))
    .digest('hex')
    .slice(0, 16);
  const cacheFile = join(cacheDir, `${basename(file)}-${key}.bin`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {}
  const script = new vm.Script(source, {
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
    // Held until now (see readInPieces): released after what start-up read.
    cachedData = undefined;
    // After the answer that said so has gone out; a failure to write only costs the next start time.
    setImmediate(() => {
      try {
        if (cache !== 'used') save();
      } catch (error) {
        console.error(`[launch] could not keep the compiled code in ${cacheDir}: ${error.message}`);
      }
      optimisersOn();
      afterStartup();
    });
  };
  quietAboutTheDefaultLoader();
  const exports = {};
  script.runInThisContext()(exports, module.createRequire(file), { exports }, file, dirname(file));
  return { cache };
}

/**
 * Turns V8's optimising compilers (Maglev, TurboFan) off, those the command line left on; returns
 * what turns them on again. A start-up runs most of its code once (the bundle's evaluation, parsing
 * the SDLs, building the schemas, the ORM's discovery), yet enough of it gets hot for V8 to
 * optimise, and `npm start` optimises on the main thread (`--no-concurrent-recompilation`,
 * package.json; the README says why): with both off until start-up was over, an existing data
 * folder's start (`node scripts/launch.mjs main`, 2-core VM) took 0.88–0.91 s against 0.94–1.00 s
 * (medians of five, alternating), 0.95–0.96 s with only TurboFan off. Optimising on V8's threads
 * instead (no `--no-concurrent-recompilation`) started as fast, 0.86–0.92 s, but left 221–230 MB
 * resident 1 s after start against 201 (`npm run bench`). A function hot in the server's work is
 * optimised as before once they are on (V8 reads these flags when it decides to optimise);
 * Sparkplug, V8's baseline compiler, stays on (off: a slower start).
 */
function optimisersOff() {
  const off = ['maglev', 'turbofan'].filter((name) => !process.execArgv.includes(`--no-${name}`));
  for (const name of off) v8.setFlagsFromString(`--no-${name}`);
  return () => {
    for (const name of off) v8.setFlagsFromString(`--${name}`);
  };
}

/**
 * The bundle's text between `before` and `after`, read 256 KiB at a time rather than whole. glibc's
 * malloc gives back to the system a block it mapped for a large allocation when it is freed, then
 * raises the size from which it maps (up to 32 MiB) to that block's: the 10 MB read of the whole
 * bundle, freed at once, made every later large buffer of start-up (this cache's 7.7 MB, PGlite's
 * 10 MB of WebAssembly and 6 MB file-system bundle) come from the heap, where freeing them gave
 * nothing back: ~20 MB of resident memory for good. The cache's buffer is also kept until start-up
 * is over, for the same reason (its free would raise the size again before PGlite reads). Measured
 * with a full collection after start-up (launch.mjs): RSS 1 s after start 232–249 MB against
 * 250–261 (six starts each).
 *
 * Each piece is a string of one byte a character (the build writes the bundle in ASCII, scripts/
 * build.ts) larger than V8's largest ordinary object (128 KiB): V8 makes it in its large-object
 * space, which a young-generation collection keeps without copying. Pieces of 64 KiB decoded as
 * UTF-8 were ordinary young objects, alive until the join: the two collections that copied them
 * took 70 ms of a start on a 2-core VM (33–48 ms each, by `--trace-gc`), 3–7 ms now.
 */
function readInPieces(file, before, after) {
  const fd = openSync(file, 'r');
  try {
    const piece = Buffer.allocUnsafeSlow(256 * 1024);
    const parts = [before];
    for (let n; (n = readSync(fd, piece, 0, piece.length, null)) > 0; ) parts.push(piece.toString('latin1', 0, n));
    parts.push(after);
    return parts.join('');
  } finally {
    closeSync(fd);
  }
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
