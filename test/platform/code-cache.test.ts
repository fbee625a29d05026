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

  it('reads the text whole, a character split between two reads included, and says when start-up is over', () => {
    const file = join(dir, 'pieces.cjs');
    // 'é' is two bytes in UTF-8: the padding puts its first at the end of the first 64 KiB read.
    const head = '"use strict"; console.log("';
    const pad = 64 * 1024 - 1 - Buffer.byteLength(head);
    writeFileSync(file, `${head}${'x'.repeat(pad)}é ✓ 𝄞".slice(${pad})); globalThis[Symbol.for("service-platform.startup-done")]();`);
    expect(readFileSync(file).subarray(64 * 1024 - 1, 64 * 1024 + 1).toString('utf8')).toBe('é');
    const script = `const { runBundle } = await import(${JSON.stringify(codeCache)}); runBundle(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}, { afterStartup: () => console.log('after start-up') });`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n')).toEqual(['é ✓ 𝄞', 'after start-up']);
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
