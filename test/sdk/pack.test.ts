import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../sdk/src/index.ts';
import { signupCompany, type Company } from '../support/fixtures.ts';
import { testServer } from '../support/server.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

/** The first ```ts block under the README's `## TypeScript SDK` heading: the snippet a newcomer runs. */
function readmeSnippet(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = /^## TypeScript SDK[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1];
  if (!section) throw new Error('README.md has no "## TypeScript SDK" section');
  const block = /^```ts\n([\s\S]*?)^```/m.exec(section)?.[1];
  if (!block) throw new Error('README.md\'s "## TypeScript SDK" section has no ```ts block');
  return block;
}

/**
 * The environment of a command run as a user would run it: without the variables npm sets for the
 * script running this test (npm_config_*, npm_package_*: a nested npm would take them as its own
 * configuration, e.g. this repository as its prefix).
 */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return { ...env, ...extra };
}

/**
 * The SDK as another project gets it: `npm pack` in sdk/ (its `prepare` script compiles dist/), the
 * tarball installed into a new ES module project with no network, and the README's TypeScript SDK
 * snippet run there by Node 24 (type stripping) against a running server.
 */
describe('the packed SDK in another project', () => {
  let work: string;
  let company: Company;
  let baseUrl: string;
  const companyName = `Pack Studio ${process.pid}-${Date.now()}`;
  const serviceName = `Packed cut ${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'sdk-pack-'));
    baseUrl = (await testServer()).url;
    company = await signupCompany(companyName);
    await createClient({ baseUrl, token: company.apiKey }).services.create({ name: serviceName, durationMinutes: 60, price: '30', capacity: 1 });
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs with dist/, installs from the tarball and runs the README snippet', async () => {
    // Pack: the tarball carries the compiled modules and their types, not the sources.
    const packs = join(work, 'packs');
    mkdirSync(packs);
    await run('npm', ['pack', '--pack-destination', packs], { cwd: join(ROOT, 'sdk'), env: userEnv(), maxBuffer: 16 * 1024 * 1024 });
    const tarballs = readdirSync(packs).filter((file) => file.endsWith('.tgz'));
    expect(tarballs).toHaveLength(1);
    const tarball = join(packs, tarballs[0]);

    // Another project: an ES module package that installs the tarball (no runtime dependencies, so no network).
    const project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2));
    const install = await run('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund'], { cwd: project, env: userEnv() });
    // Nothing for the other project to approve or wonder about: the package has no install-time scripts.
    expect(install.stderr).not.toContain('install-scripts');
    const installed = join(project, 'node_modules', '@service-platform', 'sdk');
    for (const file of ['package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/core.js', 'dist/namespaces/services.js'])
      expect(existsSync(join(installed, file)), file).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);

    // The README's snippet, as a file of that project, run by Node 24 (it strips the types).
    const snippet = join(project, 'snippet.ts');
    writeFileSync(snippet, readmeSnippet());
    const { stdout } = await run(process.execPath, [snippet], {
      cwd: project,
      env: userEnv({ BASE_URL: baseUrl, API_KEY: company.apiKey, COMPANY_ID: company.companyId }),
      timeout: 30_000,
    });
    // It talked to the server: what it printed names the company or its service.
    expect(stdout.trim()).not.toBe('');
    expect(
      [companyName, serviceName, company.companyId].some((value) => stdout.includes(value)),
      stdout,
    ).toBe(true);
  }, 120_000);
});
