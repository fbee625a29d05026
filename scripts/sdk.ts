/**
 * `npm run sdk:generate`: the SDK (sdk/) from the OpenAPI document the server serves. Starts the
 * embedded server on a throwaway data folder, reads /openapi/connect-v6.openapi.json, and writes
 * what sdk/generator/generate.ts makes of it. test/sdk/generate.test.ts fails when the checked-in
 * SDK differs from what this would write.
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createApp } from '../router/app.ts';
import { loadConfig } from '../subgraphs/kernel/config.ts';
import { generateSdk } from '../sdk/generator/generate.ts';

const SDK = join(import.meta.dirname, '..', 'sdk');
const dataDir = mkdtempSync(join(tmpdir(), 'sdk-generate-'));
const config = { ...loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', JWT_SECRET: 'sdk-generate-secret-sdk-generate-secret' }), port: 0 };
const app = await createApp(config);
try {
  await new Promise<void>((r) => app.server.listen(0, '127.0.0.1', r));
  const { port } = app.server.address() as AddressInfo;
  const document = await (await fetch(`http://127.0.0.1:${port}/openapi/connect-v6.openapi.json`)).json();
  const files = await generateSdk(document, readFileSync(join(SDK, 'README.md'), 'utf8'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(SDK, path)), { recursive: true });
    writeFileSync(join(SDK, path), text);
  }
  console.log(`sdk/: ${Object.keys(files).length} files written`);
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
