import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { EdgeVM } from '@edge-runtime/vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayFromNow } from '../support/booking.ts';
import { lastCode, uniqueEmail } from '../support/client.ts';
import { sdkStudio, type Studio } from './studio.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CHROMIUM = '/usr/bin/chromium';
const SMOKE = join(import.meta.dirname, 'smoke.js');

/**
 * The built SDK (tsc's output of sdk/, as `npm run sdk:build` makes it) running the storefront smoke
 * (smoke.js) outside Node: in an edge runtime (@edge-runtime/vm, Web APIs only) and in headless
 * Chromium (a page that imports the built modules, calling the API cross-origin). Also its size.
 */
describe('the built SDK in other runtimes', () => {
  let studio: Studio;
  let dist: string;
  const date = dayFromNow(6);

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'sdk-dist-'));
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'sdk', 'tsconfig.json'), '--outDir', dist], {
      stdio: 'pipe',
    });
    studio = await sdkStudio();
  }, 120_000);

  const expectSmoke = (result: any) => {
    expect(result.serviceCount).toBe(1);
    expect(result.bookingStatus).toBe('CONFIRMED');
    expect(result.mine).toEqual([result.bookingId]);
    expect(result.postTitles).toEqual(['Opening hours']);
    expect(result.refused).toEqual({ name: 'ApiError', code: 'NOT_FOUND', status: 404, isApiError: true });
  };

  it('runs the smoke in an edge runtime', async () => {
    const bundle = await build({
      stdin: {
        contents: `import * as sdk from ${JSON.stringify(join(dist, 'index.js'))}; import { smoke } from ${JSON.stringify(SMOKE)}; globalThis.runSmoke = (options) => smoke(sdk, options);`,
        resolveDir: ROOT,
      },
      bundle: true,
      format: 'iife',
      platform: 'neutral',
      write: false,
    });
    const email = uniqueEmail('sdk-edge');
    const since = Date.now();
    const vm = new EdgeVM();
    vm.evaluate(bundle.outputFiles[0].text);
    // Node's own globals are not there: the SDK had only Web APIs to work with.
    expect(vm.evaluate('typeof process + typeof require + typeof Buffer')).toBe('undefinedundefinedundefined');
    const result = await vm.evaluate('runSmoke')({
      baseUrl: studio.baseUrl,
      companyId: studio.companyId,
      email,
      date,
      readCode: (to: string) => lastCode(to, since),
    });
    expectSmoke(result);
  });

  describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('in headless Chromium', () => {
    let site: Server;
    let siteUrl: string;
    const TYPES: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html' };

    beforeAll(async () => {
      // The storefront's own origin (localhost, another port): the page imports the built SDK from it.
      site = createServer((req, res) => {
        const path = req.url === '/' ? '/index.html' : req.url!;
        const file =
          path === '/index.html'
            ? null
            : path === '/smoke.js'
              ? SMOKE
              : path.startsWith('/sdk/')
                ? join(dist, normalize(path.slice('/sdk/'.length)).replace(/^(\.\.[/\\])+/, ''))
                : undefined;
        if (file === undefined || (file && !existsSync(file))) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/html' });
        res.end(
          file
            ? readFileSync(file)
            : `<!doctype html><script type="module">import * as sdk from '/sdk/index.js'; import { smoke } from '/smoke.js'; window.runSmoke = (o) => smoke(sdk, { ...o, readCode: window.readCode });</script>`,
        );
      });
      await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
      siteUrl = `http://localhost:${(site.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise<void>((r) => (site ? site.close(() => r()) : r()));
    });

    it('runs the smoke from a page that imports the built SDK', async () => {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--no-proxy-server'],
      });
      try {
        const page = await browser.newPage();
        const email = uniqueEmail('sdk-browser');
        const since = Date.now();
        await page.exposeFunction('readCode', (to: string) => lastCode(to, since));
        await page.goto(siteUrl);
        await page.waitForFunction(() => typeof (window as any).runSmoke === 'function');
        const result = await page.evaluate((options) => (window as any).runSmoke(options), {
          baseUrl: studio.baseUrl,
          companyId: studio.companyId,
          email,
          date,
        });
        expectSmoke(result);
      } finally {
        await browser.close();
      }
    }, 60_000);
  });

  it('keeps one namespace’s bundle small (the sizes sdk/README.md states)', async () => {
    const size = async (contents: string) => {
      const out = await build({
        stdin: { contents, resolveDir: ROOT },
        bundle: true,
        format: 'esm',
        minify: true,
        write: false,
        platform: 'neutral',
        treeShaking: true,
      });
      return { minified: out.outputFiles[0].contents.length, gzipped: gzipSync(out.outputFiles[0].contents).length };
    };
    const whole = await size(`export { createClient } from ${JSON.stringify(join(dist, 'index.js'))};`);
    const one = await size(
      `export { createCore } from ${JSON.stringify(join(dist, 'core.js'))}; export { blog } from ${JSON.stringify(join(dist, 'namespaces', 'blog.js'))};`,
    );
    console.log(
      `[sdk size] whole client ${whole.minified} B minified, ${whole.gzipped} B gzipped; core + blog ${one.minified} B minified, ${one.gzipped} B gzipped`,
    );
    // The other fourteen namespaces stay out of a bundle that imports one.
    expect(one.minified).toBeLessThan(whole.minified / 3);
    expect(one.gzipped).toBeLessThan(4_000);
  });
});
