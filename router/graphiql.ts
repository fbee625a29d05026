/**
 * GraphiQL at `/graphql` without the internet: the page is a few kilobytes, and its script, style
 * and Monaco workers are files the router serves from @graphql-yoga/render-graphiql (the version
 * graphql-yoga inside the gateway expects). The package's own renderer inlines all of them, 9 MB
 * of HTML on every visit that no browser can cache; as files under `/graphiql/<version>/` they are
 * fetched once and cached. The package is imported when a browser first asks: a start or an API
 * request never needs it.
 */
import { createRequire } from 'node:module';

type GraphiQLBundle = typeof import('@graphql-yoga/render-graphiql/graphiql');

/** The package's version in the assets' path: a new version is a new address, so caching forever is safe. */
const VERSION: string = createRequire(import.meta.url)('@graphql-yoga/render-graphiql/package.json').version;
const ASSETS = `/graphiql/${VERSION}`;

/** Each asset: its content type and the bundle's export that holds it. */
const FILES: Record<string, { type: string; key: keyof GraphiQLBundle }> = {
  [`${ASSETS}/graphiql.js`]: { type: 'text/javascript; charset=utf-8', key: 'js' },
  [`${ASSETS}/graphiql.css`]: { type: 'text/css; charset=utf-8', key: 'css' },
  [`${ASSETS}/editor.worker.js`]: { type: 'text/javascript; charset=utf-8', key: 'editorWorkerService' },
  [`${ASSETS}/json.worker.js`]: { type: 'text/javascript; charset=utf-8', key: 'jsonWorker' },
  [`${ASSETS}/graphql.worker.js`]: { type: 'text/javascript; charset=utf-8', key: 'graphqlWorker' },
};

/** Monaco asks for a worker by label; these are the labels the GraphiQL bundle uses. */
const WORKERS = { editorWorkerService: `${ASSETS}/editor.worker.js`, json: `${ASSETS}/json.worker.js`, graphql: `${ASSETS}/graphql.worker.js` };

let bundle: Promise<GraphiQLBundle> | undefined;
const load = () => (bundle ??= import('@graphql-yoga/render-graphiql/graphiql'));

/** The icon the package ships, a data: URL in the bundle, served as a file. */
const FAVICON = `${ASSETS}/favicon.ico`;

/** The page: Yoga's GraphiQL with the options the gateway gives (title, endpoint, …). */
export function renderGraphiQL(given: Record<string, unknown> = {}): string {
  // The gateway's favicon is a 70 kB data: URL; the page links the package's icon instead.
  const { favicon: _favicon, ...options } = given;
  const inline = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');
  const title = String(options.title ?? 'GraphiQL').replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="icon" href="${FAVICON}">
<link rel="stylesheet" href="${ASSETS}/graphiql.css">
</head><body id="body" class="no-focus-outline">
<noscript>You need to enable JavaScript to run this app.</noscript>
<div id="root"></div>
<script>
const workers = ${inline(WORKERS)};
self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (moduleId, label) => workers[label] };
</script>
<script src="${ASSETS}/graphiql.js"></script>
<script>YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), ${inline(options)});</script>
</body></html>`;
}

/** A GraphiQL asset for a path under `/graphiql/`, or null. */
export async function graphiqlAsset(path: string): Promise<{ type: string; body: string | Buffer; cache: string } | null> {
  const cache = 'public, max-age=31536000, immutable';
  if (path === FAVICON) {
    const [head, data] = (await load()).favicon.split(',', 2);
    return { type: /^data:([^;,]+)/.exec(head)?.[1] ?? 'image/x-icon', body: Buffer.from(data, 'base64'), cache };
  }
  const file = FILES[path];
  if (!file) return null;
  return { type: file.type, body: (await load())[file.key], cache };
}
