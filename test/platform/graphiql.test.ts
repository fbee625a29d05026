import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupCompany, type Company } from '../support/fixtures.ts';
import { testServer } from '../support/server.ts';

const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of the pages as a browser rendered them (gitignored). */
const SHOTS = join(import.meta.dirname, '..', '..', 'test-output', 'screenshots');

/**
 * GraphiQL at /graphql in headless Chromium with the internet cut off: every request that does not
 * go to our own server is refused, so the page works only if the router serves all of it.
 */
describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('GraphiQL in a browser, offline', () => {
  let browser: import('playwright-core').Browser;
  let company: Company;
  let url: string;

  beforeAll(async () => {
    url = (await testServer()).url;
    company = await signupCompany('GraphiQL Studio');
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => browser?.close());

  it('loads from the router alone, runs a query and shows its result', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    await page.route('**/*', (route) => {
      const target = route.request().url();
      if (target.startsWith(url) || target.startsWith('data:') || target.startsWith('blob:')) return route.continue();
      outside.push(target);
      return route.abort();
    });
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
    expect(outside).toEqual([]);
    await page.close();
  }, 120_000);
});
