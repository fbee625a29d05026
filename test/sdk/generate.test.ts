import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSdk } from '../../sdk/generator/generate.ts';
import { http } from '../support/client.ts';

const SDK = join(import.meta.dirname, '..', '..', 'sdk');

/** The SDK is generated, not kept by hand (issue 15): regenerating it from the served OpenAPI document changes nothing. */
describe('the generated SDK', () => {
  it('is what the generator writes from the OpenAPI document (run `npm run sdk:generate` when this fails)', async () => {
    const document = (await http('/openapi/connect-v6.openapi.json')).body;
    const files = await generateSdk(document, readFileSync(join(SDK, 'README.md'), 'utf8'));
    for (const [path, text] of Object.entries(files)) expect(readFileSync(join(SDK, path), 'utf8'), path).toBe(text);
    // No namespace module is left over from an earlier map.
    expect(readdirSync(join(SDK, 'src', 'namespaces')).sort()).toEqual(
      Object.keys(files)
        .filter((f) => f.startsWith('src/namespaces/'))
        .map((f) => f.slice('src/namespaces/'.length))
        .sort(),
    );
  });

  it('refuses a document with an operation no namespace names', async () => {
    const document = structuredClone((await http('/openapi/connect-v6.openapi.json')).body);
    document.paths['/v6/merchant/extra'] = { get: { operationId: 'extra_tool', responses: { 200: { description: 'ok' } } } };
    await expect(generateSdk(document, readFileSync(join(SDK, 'README.md'), 'utf8'))).rejects.toThrow(
      /no SDK method for GET \/v6\/merchant\/extra \(extra_tool\)/,
    );
  });

  it('type-checks with Web APIs only and imports nothing from node:', () => {
    // sdk/tsconfig.json has no Node types: a Node-only API would not compile.
    execFileSync(process.execPath, [join(SDK, '..', 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(SDK, 'tsconfig.json'), '--noEmit'], {
      stdio: 'pipe',
    });
    const sources = ['core.ts', 'index.ts', ...readdirSync(join(SDK, 'src', 'namespaces')).map((f) => `namespaces/${f}`)].map((f) =>
      readFileSync(join(SDK, 'src', f), 'utf8'),
    );
    for (const source of sources) expect(source).not.toMatch(/from ['"]node:|require\(/);
    const manifest = JSON.parse(readFileSync(join(SDK, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
  }, 60_000);
});
