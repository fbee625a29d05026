import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../subgraphs/kernel/config.ts';
import { DASHBOARD_LOGIN_PATH, dashboardLoginPage } from './dashboard-login.ts';

const DOCS_DIR = join(import.meta.dirname, '..', 'docs');
const GUIDES: Record<string, { file: string; title: string }> = {
  '/docs/sign-in.md': { file: 'sign-in.md', title: 'Customer sign-in' },
  '/docs/merchant-signup.md': { file: 'merchant-signup.md', title: 'Merchant signup and API keys' },
  '/docs/booking.md': { file: 'booking.md', title: 'Service booking' },
  '/docs/content.md': { file: 'content.md', title: 'Content, events, surveys' },
  '/docs/safe-writes.md': { file: 'safe-writes.md', title: 'Safe retries and the audit log' },
  '/docs/errors.md': { file: 'errors.md', title: 'Errors and state transitions' },
};

/** The API reference's script: Scalar's standalone bundle from the installed package, served by us (no CDN). */
const SCALAR_SCRIPT = join(import.meta.dirname, '..', 'node_modules', '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');
const SCALAR_PATH = '/docs/assets/api-reference.js';
let scalarScript: Buffer | undefined;

export interface DocAnswer {
  type: string;
  body: string | Buffer;
  /** Cache-Control: the reference's script changes only with the installed package. */
  cache?: string;
}

/** `/`, the API reference at `/docs`, the sign-in link's page, /llms.txt and the Markdown guides; null for other paths. */
export function docsRoute(path: string, config: Config): DocAnswer | null {
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
  const guide = GUIDES[path];
  if (!guide) return null;
  return { type: 'text/markdown; charset=utf-8', body: readFileSync(join(DOCS_DIR, guide.file), 'utf8').replaceAll('{base_url}', config.publicUrl) };
}

const PAGE_STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:3rem auto;padding:0 1rem;color:#1f2328}a{color:#0b57d0}code{background:#f3f4f6;padding:0 .25rem;border-radius:3px}li{margin:.3rem 0}';

/** What a person finds at the root: every way in, one link each. */
function homePage(): string {
  const guides = Object.entries(GUIDES)
    .map(([path, g]) => `<li><a href="${path}">${g.title}</a></li>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Service platform API</title><style>${PAGE_STYLE}</style></head><body>
<h1>Service platform API</h1>
<p>One GraphQL supergraph, exposed as REST (<code>/v6/…</code>), GraphQL and MCP tools.</p>
<ul>
<li><a href="/docs">API reference</a>: every REST route, its parameters, answers and errors.</li>
<li><a href="/graphql">GraphiQL</a>: the whole supergraph in the browser.</li>
<li><a href="/llms.txt">llms.txt</a>: the index for language models and agents.</li>
<li>OpenAPI document: <a href="/openapi/connect-v6.openapi.json">JSON</a>, <a href="/openapi/connect-v6.openapi.yaml">YAML</a>.</li>
<li>MCP: Streamable HTTP at <code>/mcp</code> with <code>Authorization: Bearer &lt;API key&gt;</code>.</li>
</ul>
<h2>Guides</h2><ul>${guides}</ul>
</body></html>`;
}

/** Scalar over our OpenAPI document; fonts are the system's (Scalar's default fetches them from its CDN). */
function referencePage(): string {
  const configuration = JSON.stringify({ url: '/openapi/connect-v6.openapi.json', withDefaultFonts: false, hideClientButton: true, telemetry: false });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>API reference · Service platform</title><meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
<div id="app"></div>
<script src="${SCALAR_PATH}"></script>
<script>Scalar.createApiReference('#app', ${configuration.replaceAll('<', '\\u003c')})</script>
</body></html>`;
}
