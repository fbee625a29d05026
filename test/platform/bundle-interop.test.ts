import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedInterop } from '../../scripts/build.ts';

const dir = mkdtempSync(join(tmpdir(), 'bundle-interop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * An ES module two CommonJS modules require, bundled as scripts/build.ts bundles (CommonJS,
 * minified syntax, names kept), then given the build's interop helper.
 */
async function bundled(files: Record<string, string>): Promise<string> {
  const root = mkdtempSync(join(dir, 'src-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  const result = await build({ absWorkingDir: root, entryPoints: ['entry.mjs'], bundle: true, platform: 'node', format: 'cjs', keepNames: true, minifyWhitespace: true, minifySyntax: true, write: false, logLevel: 'silent' });
  return result.outputFiles[0].text;
}

const run = (text: string) => {
  const file = join(dir, `bundle-${Math.random().toString(36).slice(2)}.cjs`);
  writeFileSync(file, text);
  return JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8' }));
};

const SOURCES = {
  // An ES module with a binding that changes after it is required.
  'counter.mjs': 'export let count = 0;\nexport function bump() { count++; }\nexport const name = "counter";\n',
  'a.cjs': 'module.exports = require("./counter.mjs");\n',
  'b.cjs': 'module.exports = require("./counter.mjs");\n',
  'entry.mjs': 'import a from "./a.cjs";\nimport b from "./b.cjs";\nconst before = a.count;\nb.bump();\nconsole.log(JSON.stringify({ same: a === b, before, after: a.count, viaB: b.count, name: a.name, esModule: a.__esModule, keys: Object.keys(a).sort() }));\n',
};

describe('the bundle’s require() of an ES module (scripts/build.ts sharedInterop)', () => {
  it('answers one exports object per module, its bindings live, as Node’s require() does', async () => {
    const text = await bundled(SOURCES);
    // Without the build's helper, each require() makes its own copy.
    expect(run(text).same).toBe(false);
    expect(run(sharedInterop('bundle.cjs', text))).toEqual({ same: true, before: 0, after: 1, viaB: 1, name: 'counter', esModule: true, keys: ['bump', 'count', 'name'] });
  });

  it('keeps esbuild’s helper where an export * of a CommonJS module adds exports later', async () => {
    const text = await bundled({ ...SOURCES, 'counter.mjs': `${SOURCES['counter.mjs']}export * from "./plain.cjs";\n`, 'plain.cjs': 'exports.extra = 1;\n' });
    expect(text).toContain('__reExport(');
    expect(sharedInterop('bundle.cjs', text)).toBe(text);
  });

  it('refuses a bundle whose helper esbuild has changed, rather than leave it unshared', () => {
    expect(() => sharedInterop('bundle.cjs', 'var __toCommonJS=(mod)=>copy(mod);module.exports=__toCommonJS(x);')).toThrow(/update scripts\/build\.ts \(sharedInterop\)/);
  });
});
