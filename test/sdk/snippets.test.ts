import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The TypeScript blocks of a Markdown file. */
const snippets = (file: string) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^ *```ts\n([\s\S]*?)^ *```/gm)].map((m) => m[1].replace(/^ {2}/gm, ''));

/** Values the snippets take from the reader's own context. */
const CONTEXT = `declare const C: string, KEY: string, code: string, serviceId: string, slotTime: string, segmentId: string, baseUrl: string, companyId: string;\n`;

/**
 * The SDK snippets of the README, sdk/README.md and docs/api/sdk.md compile against the SDK as generated: a
 * method, a field or a result shape they name that the SDK does not have fails here.
 */
describe('the SDK snippets in the READMEs and the SDK page', () => {
  it('type-check against the SDK', () => {
    const blocks = [...snippets('README.md'), ...snippets('sdk/README.md'), ...snippets('docs/api/sdk.md')].filter((s) => s.includes('@service-platform/sdk'));
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    const dir = mkdtempSync(join(tmpdir(), 'sdk-snippets-'));
    const files = blocks.map((block, i) => {
      const file = join(dir, `snippet-${i}.ts`);
      writeFileSync(file, `${CONTEXT}${block}\nexport {};\n`);
      return file;
    });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM', 'DOM.Iterable', 'ESNext.AsyncIterable'],
          // Node's own types (the README's snippet reads process.env), from this repository's @types.
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          paths: {
            '@service-platform/sdk': [join(ROOT, 'sdk/src/index.ts')],
            '@service-platform/sdk/core': [join(ROOT, 'sdk/src/core.ts')],
            '@service-platform/sdk/*': [join(ROOT, 'sdk/src/namespaces/*.ts')],
          },
        },
        files,
      }),
    );
    let output = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], { stdio: 'pipe' });
    } catch (error) {
      output = String((error as { stdout?: Buffer }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 60_000);
});
