import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cacheDir = join(dir, 'cache');
const codeCache = pathToFileURL(join(import.meta.dirname, '..', '..', 'scripts', 'code-cache.mjs')).href;

/**
 * A bundle as the build writes one (strict CommonJS) that prints what it sees, compiles a function
 * and says its start-up is over.
 */
const bundle = (word: string) =>
  `"use strict"; const later = () => [1, 2, 3].map((n) => n * 2).join(""); console.log("${word}", later(), typeof require, typeof module.exports, __filename.endsWith(".cjs")); globalThis[Symbol.for("service-platform.startup-done")]();`;

/**
 * Runs the bundle in a process of its own, as launch.mjs does (within one process V8 would reuse
 * its own compilation and never read the file): what it printed, and how its cache went.
 */
const run = (file: string, variant = '') => {
  const script = `const { runBundle } = await import(${JSON.stringify(codeCache)}); const { cache } = runBundle(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}, { variant: ${JSON.stringify(variant)} }); console.log(cache);`;
  const [printed, cache] = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n');
  return { printed, cache };
};

/** scripts/code-cache.mjs, as scripts/launch.mjs runs dist/<entry>.cjs with it. */
describe('the code V8 compiled for a bundle, kept between starts', () => {
  it('is written when start-up is over, used by the next run of the same file, and never for another text', () => {
    const file = join(dir, 'entry.cjs');
    writeFileSync(file, bundle('first'));
    expect(run(file)).toEqual({ printed: 'first 246 function object true', cache: 'absent' });
    const [cached] = readdirSync(cacheDir);
    expect(cached).toMatch(/^entry\.cjs-[0-9a-f]{16}\.bin$/);
    expect(run(file)).toEqual({ printed: 'first 246 function object true', cache: 'used' });

    // The same length and another text, as a rebuild can give: V8 would take the old code for it
    // (it checks the length), so the file's time is part of the key and the old cache is not read.
    writeFileSync(file, bundle('other'));
    utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    expect(run(file)).toEqual({ printed: 'other 246 function object true', cache: 'absent' });
    expect(readdirSync(cacheDir)).toHaveLength(2);
  });

  it('is kept per variant: a start-up that runs other code (another topology or database) makes its own', () => {
    const file = join(dir, 'variant.cjs');
    writeFileSync(file, bundle('variant'));
    expect(run(file, 'distributed pglite').cache).toBe('absent');
    expect(run(file, 'embedded pglite').cache).toBe('absent');
    expect(run(file, 'distributed pglite').cache).toBe('used');
    expect(run(file, 'embedded pglite').cache).toBe('used');
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('variant.cjs-'))).toHaveLength(2);
  });

  it('reads the text whole across its pieces, as the ASCII the build writes, and says when start-up is over', () => {
    const file = join(dir, 'pieces.cjs');
    // Three 256 KiB reads and a bit: its length, and the characters around the first boundary. What
    // is not ASCII is escaped, as the build writes it (scripts/build.ts), in a string and a regex.
    const head = '"use strict"; const text = "';
    const body = Array.from({ length: 800 * 1024 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    // Where the first read ends, as an index into `text`.
    const boundary = 256 * 1024 - head.length;
    const tail = `"; console.log(text.length, text.slice(${boundary - 2}, ${boundary + 2}), "\\u00e9 \\u2713", /^\\u00e9$/.test("\\u00e9")); globalThis[Symbol.for("service-platform.startup-done")]();`;
    writeFileSync(file, head + body + tail);
    expect(/[^\x00-\x7f]/.test(readFileSync(file, 'latin1'))).toBe(false);
    const script = `const { runBundle } = await import(${JSON.stringify(codeCache)}); runBundle(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}, { afterStartup: () => console.log('after start-up') });`;
    const around = body.slice(boundary - 2, boundary + 2);
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n')).toEqual([`${body.length} ${around} é ✓ true`, 'after start-up']);
  });

  it('runs the bundle without optimising compilers until start-up is over, and with them after, unless the command line turned them off', () => {
    const file = join(dir, 'optimisers.cjs');
    // A function hot enough that V8 optimises it (synchronously: no worker thread, as npm start runs),
    // asked whether its code is optimised (V8's optimisation status, bit 4) during and after start-up.
    writeFileSync(
      file,
      `"use strict"; function hot(s) { let n = 0; for (let i = 0; i < s.length; i++) n += s.charCodeAt(i); return n; }
      const optimised = () => { for (let i = 0; i < 50000; i++) hot("abcdefghij"); return (%GetOptimizationStatus(hot) & 16) !== 0; };
      console.log("during start-up", optimised());
      globalThis.optimised = optimised;
      globalThis[Symbol.for("service-platform.startup-done")]();`,
    );
    const started = (flags: string[]) => {
      const script = `const { runBundle } = await import(${JSON.stringify(codeCache)}); const { cache } = runBundle(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}, { afterStartup: () => console.log('after start-up', globalThis.optimised()) }); console.log(cache);`;
      return execFileSync(process.execPath, ['--allow-natives-syntax', '--no-concurrent-recompilation', ...flags, '--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n');
    };
    expect(started([])).toEqual(['during start-up false', 'absent', 'after start-up true']);
    // Again, with the cache the first run wrote: made while they were off, V8 takes it.
    expect(started([])).toEqual(['during start-up false', 'used', 'after start-up true']);
    expect(started(['--no-maglev', '--no-turbofan'])).toEqual(['during start-up false', 'absent', 'after start-up false']);
  });

  it('is made again when V8 refuses it', () => {
    const file = join(dir, 'refused.cjs');
    writeFileSync(file, bundle('refused'));
    run(file);
    const cacheFile = join(cacheDir, readdirSync(cacheDir).find((f) => f.startsWith('refused.cjs-'))!);
    const good = readFileSync(cacheFile);
    writeFileSync(cacheFile, Buffer.alloc(good.length, 7));
    expect(run(file).cache).toBe('rejected');
    expect(readFileSync(cacheFile).equals(Buffer.alloc(good.length, 7))).toBe(false);
    expect(run(file).cache).toBe('used');
  });
});
