import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupCompany, type Company } from '../support/fixtures.ts';
import { testServer } from '../support/server.ts';

const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of the pages as a browser rendered them (gitignored). */
const SHOTS = join(import.meta.dirname, '..', '..', 'test-output', 'screenshots');

/**
 * The pages a person opens (GraphiQL, the API reference, the index), in headless Chromium with the
 * internet cut off: every request that does not go to our own server is refused, so a page works
 * only if the router serves all of it.
 */
describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('pages in a browser, offline', () => {
  let browser: import('playwright-core').Browser;
  let company: Company;
  let url: string;

  beforeAll(async () => {
    url = (await testServer()).url;
    company = await signupCompany('GraphiQL Studio');
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => browser?.close());

  /** A page whose requests outside our server are refused and recorded. */
  async function offlinePage() {
    const page = await browser.newPage();
    const outside: string[] = [];
    await page.route('**/*', (route) => {
      const target = route.request().url();
      if (target.startsWith(url) || target.startsWith('data:') || target.startsWith('blob:')) return route.continue();
      outside.push(target);
      return route.abort();
    });
    return { page, outside };
  }

  it('GraphiQL loads from the router alone, runs a query and shows its result', async () => {
    const { page, outside } = await offlinePage();
    // The editor's language features run in workers the router serves; a script error would show here.
    const workers: string[] = [];
    const errors: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    page.on('pageerror', (error) => errors.push(error.message));
    const query = '{ company { name } }';
    // The merchant's key, as a user would paste it into the headers pane.
    await page.setExtraHTTPHeaders({ authorization: `Bearer ${company.apiKey}` });
    await page.goto(`${url}/graphql?query=${encodeURIComponent(query)}`, { waitUntil: 'load' });
    await page.locator('.graphiql-execute-button').waitFor({ timeout: 30_000 });
    expect(await page.title()).toBe('Service platform GraphQL');
    await page.locator('.graphiql-execute-button').click();
    const response = page.locator('.graphiql-response');
    await expect.poll(async () => (await response.innerText()).replace(/\s+/g, ' '), { timeout: 30_000 }).toContain('"name": "GraphiQL Studio"');
    await page.screenshot({ path: join(SHOTS, 'graphiql.png') });
    await expect
      .poll(() => workers.map((w) => new URL(w).pathname.split('/').pop()).sort())
      .toEqual(expect.arrayContaining(['editor.worker.js', 'graphql.worker.js']));
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  }, 120_000);

  it("GraphiQL's page is small and its script, style and workers are files a browser caches", async () => {
    const res = await fetch(`${url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    // The package's own renderer inlines 9 MB into every page.
    expect(html.length).toBeLessThan(10_000);
    const assets = [...html.matchAll(/(?:src|href)="(\/graphiql\/[^"]+)"/g), ...html.matchAll(/"(\/graphiql\/[^"]+\.worker\.js)"/g)].map((m) => m[1]);
    expect(assets.filter((a) => a.endsWith('.worker.js'))).toHaveLength(3);
    expect(assets.length).toBeGreaterThanOrEqual(6);
    for (const asset of assets) {
      const file = await fetch(`${url}${asset}`);
      expect(file.status, asset).toBe(200);
      expect(file.headers.get('cache-control'), asset).toContain('immutable');
      expect((await file.arrayBuffer()).byteLength, asset).toBeGreaterThan(1000);
    }
    expect((await fetch(`${url}/graphiql/0.0.0/graphiql.js`)).status).toBe(404);
    // Gzipped for a browser that takes it (a quarter of the 5 MB script), plain otherwise.
    const script = assets.find((a) => a.endsWith('/graphiql.js'))!;
    const plain = await fetch(`${url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const zipped = await fetch(`${url}${script}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(await zipped.text()).toBe(await plain.text());
  });

  it('the API reference at /docs lists the routes by contract group', async () => {
    const { page, outside } = await offlinePage();
    await page.goto(`${url}/docs`, { waitUntil: 'load' });
    const body = page.locator('body');
    // The first group opens with its routes' summaries; the contract's groups are the sections.
    await expect.poll(async () => await body.innerText(), { timeout: 30_000 }).toContain('The login channel configured for the tenant');
    const text = await body.innerText();
    for (const group of ['Member session', 'Service booking', 'Content and events', 'Merchant']) expect(text).toContain(group);
    expect(text).toContain('Every answer is an envelope');
    // The auth schemes, explained: what each credential is and how to get it.
    for (const words of ['X-Company-Id', 'Customer token', 'Merchant API key', '/v6/dev/verify']) expect(text).toContain(words);
    // Scalar's hosted extras are off: they would call Scalar's services.
    for (const words of ['Ask AI', 'Generate MCP', 'Deploy']) expect(text).not.toContain(words);
    await page.screenshot({ path: join(SHOTS, 'api-reference.png') });
    expect(outside).toEqual([]);
    await page.close();
  }, 120_000);

  it('/ links to GraphiQL, the reference, llms.txt and the guides, each of which answers', async () => {
    const { page, outside } = await offlinePage();
    await page.goto(`${url}/`, { waitUntil: 'load' });
    const links = await page.locator('a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    for (const path of ['/graphql', '/docs', '/llms.txt', '/openapi/connect-v6.openapi.json', '/docs/booking.md']) expect(links).toContain(`${url}${path}`);
    for (const link of links) expect((await fetch(link, { headers: { accept: 'text/html' } })).status, link).toBe(200);
    // Every page of docs/guides/ and docs/api/, and docs/performance.md, is linked here and from
    // /llms.txt at /docs/<file name> and served as written, a page added later included.
    const llms = await (await fetch(`${url}/llms.txt`)).text();
    const docs = join(import.meta.dirname, '..', '..', 'docs');
    const served = [
      ...['guides', 'api'].flatMap((folder) =>
        readdirSync(join(docs, folder))
          .filter((f) => f.endsWith('.md'))
          .map((f) => join(folder, f)),
      ),
      'performance.md',
    ];
    expect(served.length).toBeGreaterThanOrEqual(15);
    for (const file of served) {
      const address = `${url}/docs/${basename(file)}`;
      expect(links, file).toContain(address);
      expect(llms, file).toContain(`${address})`);
      expect(await (await fetch(address)).text(), file).toBe(readFileSync(join(docs, file), 'utf8').replaceAll('{base_url}', url));
    }
    await page.screenshot({ path: join(SHOTS, 'home.png') });
    expect(outside).toEqual([]);
    await page.close();
  }, 60_000);

  it("the signup's loginUrl opens a page that signs the merchant in and shows the company, the session's end and how to make keys", async () => {
    const fresh = await signupCompany('Login Link Studio');
    expect(fresh.loginUrl.startsWith(`${url}/dashboard/login?token=`)).toBe(true);
    const { page, outside } = await offlinePage();
    await page.goto(fresh.loginUrl, { waitUntil: 'load' });
    // Nothing is used up by opening the page: a mail scanner fetching the link leaves it valid.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#session').waitFor({ state: 'visible', timeout: 30_000 });
    expect(await page.locator('#company-id').innerText()).toBe(fresh.companyId);
    const expiresAt = await page.locator('#expires-at').getAttribute('datetime');
    expect(new Date(expiresAt!).getTime()).toBeGreaterThan(Date.now());
    // The command it shows creates a key with the session it carries.
    const curl = await page.locator('#curl').innerText();
    const session = /authorization: Bearer (\S+)'/.exec(curl)?.[1];
    expect(curl).toContain(`curl -s -X POST ${url}/graphql`);
    const body = JSON.parse(/-d '(.*)'$/s.exec(curl)![1]);
    const created = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
      body: JSON.stringify(body),
    });
    expect(((await created.json()) as any).data.createApiKey.key).toMatch(/^svc_mcp_/);
    await page.screenshot({ path: join(SHOTS, 'dashboard-login.png') });

    // The link is one-time: a second use says so.
    const again = await offlinePage();
    await again.page.goto(fresh.loginUrl, { waitUntil: 'load' });
    await again.page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => again.page.locator('#problem').innerText(), { timeout: 30_000 }).toMatch(/invalid, used or expired/);
    expect([...outside, ...again.outside]).toEqual([]);
    await page.close();
    await again.page.close();
  }, 60_000);
});
