import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Config } from '../subgraphs/kernel/config.ts';
import { DASHBOARD_LOGIN_PATH, dashboardLoginPage } from './dashboard-login.ts';
import { graphiqlAsset } from './graphiql.ts';

const gzip = promisify(gzipCallback);
const DOCS_DIR = join(import.meta.dirname, '..', 'docs');

/**
 * The pages served, by folder of docs/: the guides, the API pages, and performance.md. Each is
 * served at `/docs/<file name>` whatever its folder: those addresses are published (the legacy
 * routes' Link headers, the OpenAPI document's introduction, the pages' links to each other), so a
 * page moving between folders keeps its address. The rest of docs/ (architecture,
 * operations, decisions) is for whoever works on or runs the platform, read in the repository.
 */
const SECTIONS: { title: string; folder: string; only?: string[] }[] = [
  { title: 'Guides', folder: 'guides' },
  { title: 'API', folder: 'api' },
  { title: 'More', folder: '.', only: ['performance.md'] },
];
/** The pages' order within their section on the index page; a page not named here comes after these. */
const ORDER = [
  'sign-in.md',
  'merchant-signup.md',
  'walk-throughs.md',
  'booking.md',
  'content.md',
  'commerce.md',
  'loyalty.md',
  'campaigns.md',
  'messaging.md',
  'safe-writes.md',
  'rest.md',
  'mcp.md',
  'sdk.md',
  'errors.md',
  'plans.md',
  'legacy.md',
];

interface Page {
  /** Under docs/. */
  file: string;
  title: string;
  section: string;
}

/** Every served page by its address, `/docs/<file name>`, titled by its first heading. */
const PAGES: Record<string, Page> = servedPages();

function servedPages(): Record<string, Page> {
  const pages: Record<string, Page> = {};
  for (const section of SECTIONS) {
    const names = readdirSync(join(DOCS_DIR, section.folder))
      .filter((name) => name.endsWith('.md') && (!section.only || section.only.includes(name)))
      .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    for (const name of names) {
      const path = `/docs/${name}`;
      // Two folders holding the same name would give two pages one address: refused at start.
      if (pages[path]) throw new Error(`docs/: ${pages[path].file} and ${join(section.folder, name)} would both be served at ${path}`);
      const file = join(section.folder, name);
      const title = /^# (.+)$/m.exec(readFileSync(join(DOCS_DIR, file), 'utf8'))?.[1] ?? name;
      pages[path] = { file, title, section: section.title };
    }
  }
  return pages;
}

function rank(file: string): number {
  const at = ORDER.indexOf(file);
  return at === -1 ? ORDER.length : at;
}

/** The API reference's script: Scalar's standalone bundle from the installed package, served by us (no CDN). */
const SCALAR_SCRIPT = join(import.meta.dirname, '..', 'node_modules', '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');
const SCALAR_PATH = '/docs/assets/api-reference.js';
let scalarScript: Buffer | undefined;

export interface DocAnswer {
  type: string;
  body: string | Buffer;
  /** Cache-Control: the reference's script changes only with the installed package. */
  cache?: string;
  /** Content-Encoding of the body (`gzip`), when the client accepts it. */
  encoding?: 'gzip';
}

/** `/`, the API reference at `/docs`, the sign-in link's page, GraphiQL's assets, /llms.txt and the Markdown guides; null for other paths. */
export async function docsRoute(path: string, config: Config, acceptEncoding?: string | string[]): Promise<DocAnswer | null> {
  const answer = await docsAnswer(path, config);
  // The scripts behind GraphiQL and the reference (9 MB and 4 MB) go gzipped when the browser takes it: about a quarter.
  if (answer?.cache?.startsWith('public') && /\bgzip\b/.test(String(acceptEncoding ?? '')))
    return { ...answer, body: await gzipped(path, answer.body), encoding: 'gzip' };
  return answer;
}

/** Each static asset gzipped once, when first asked for (they change only with the installed packages). */
const gzips = new Map<string, Promise<Buffer>>();
function gzipped(path: string, body: string | Buffer): Promise<Buffer> {
  let zipped = gzips.get(path);
  if (!zipped) gzips.set(path, (zipped = gzip(body)));
  return zipped;
}

async function docsAnswer(path: string, config: Config): Promise<DocAnswer | null> {
  if (path.startsWith('/graphiql/')) return graphiqlAsset(path);
  if (path === '/') return { type: 'text/html; charset=utf-8', body: homePage() };
  if (path === DASHBOARD_LOGIN_PATH) return { type: 'text/html; charset=utf-8', body: dashboardLoginPage(), cache: 'no-store' };
  if (path === '/docs' || path === '/docs/') return { type: 'text/html; charset=utf-8', body: referencePage() };
  if (path === SCALAR_PATH) {
    // 4 MB read when the reference is first opened, not at start.
    scalarScript ??= readFileSync(SCALAR_SCRIPT);
    return { type: 'text/javascript; charset=utf-8', body: scalarScript, cache: 'public, max-age=86400' };
  }
  if (path === '/llms.txt') {
    const body = readFileSync(join(DOCS_DIR, 'llms.txt'), 'utf8').replaceAll('{base_url}', config.publicUrl);
    return { type: 'text/plain; charset=utf-8', body };
  }
  const page = PAGES[path];
  if (!page) return null;
  return { type: 'text/markdown; charset=utf-8', body: readFileSync(join(DOCS_DIR, page.file), 'utf8').replaceAll('{base_url}', config.publicUrl) };
}

const PAGE_STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;color:#1f2328}a{color:#0b57d0}code{background:#f3f4f6;padding:0 .25rem;border-radius:3px}li{margin:.3rem 0}';

/** What a person finds at the root: every way in, one link each, and every served page by section. */
function homePage(): string {
  const sections = SECTIONS.map(({ title }) => {
    const items = Object.entries(PAGES)
      .filter(([, page]) => page.section === title)
      .map(([path, page]) => `<li><a href="${path}">${page.title}</a></li>`)
      .join('');
    return items ? `<h2>${title}</h2><ul>${items}</ul>` : '';
  }).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Service platform API</title><style>${PAGE_STYLE}</style></head><body>
<h1>Service platform API</h1>
<p>One GraphQL supergraph, exposed as REST (<code>/v6/…</code>), GraphQL and MCP tools.</p>
<p>New here? <a href="/docs/merchant-signup.md">Create an organisation and get an API key</a> (MCP tools <code>register_organisation_request</code> and <code>register_organisation_verify</code>, or <code>POST /v6/dev/signup</code>).</p>
<ul>
<li><a href="/docs">API reference</a>: every REST route, its parameters, answers and errors.</li>
<li><a href="/graphql">GraphiQL</a>: the whole supergraph in the browser.</li>
<li><a href="/llms.txt">llms.txt</a>: the index for language models and agents.</li>
<li>OpenAPI document: <a href="/openapi/connect-v6.openapi.json">JSON</a>, <a href="/openapi/connect-v6.openapi.yaml">YAML</a>.</li>
<li>MCP: Streamable HTTP at <code>/mcp</code> with <code>Authorization: Bearer &lt;API key&gt;</code>.</li>
</ul>
${sections}
</body></html>`;
}

/**
 * Scalar over our OpenAPI document; fonts are the system's (Scalar's default fetches them from its
 * CDN), and Scalar's hosted extras (AI chat, MCP generator, the share/deploy toolbar) are off:
 * they need Scalar's services, and our MCP server is /mcp.
 */
function referencePage(): string {
  const configuration = JSON.stringify({
    url: '/openapi/connect-v6.openapi.json',
    withDefaultFonts: false,
    hideClientButton: true,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showToolbar: 'never',
    showDeveloperTools: 'never',
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>API reference · Service platform</title><meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
<div id="app"></div>
<script src="${SCALAR_PATH}"></script>
<script>Scalar.createApiReference('#app', ${configuration.replaceAll('<', '\\u003c')})</script>
</body></html>`;
}
