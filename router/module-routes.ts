import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SubgraphModule } from '../subgraphs/kernel/module.ts';
import type { Runtime } from '../subgraphs/kernel/runtime.ts';

/** The largest body forwarded to a subgraph's plain route (webhooks are small). */
const MAX_FORWARDED_BODY = 1024 * 1024;

/** Hop-by-hop headers, and the ones fetch recomputes, are not passed on. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'content-encoding']);

/**
 * The subgraphs' plain HTTP routes (kernel/module.ts, HttpRoutes) as the router serves them:
 * embedded, the subgraph's handler runs in this process on the shared runtime; distributed, the
 * request goes unchanged to the subgraph's own process, which alone reads its tables. Answers
 * whether it served the path.
 */
export function moduleRoutes(
  modules: SubgraphModule[],
  target: { kind: 'embedded'; runtime: Runtime } | { kind: 'http'; urls: Record<string, string> },
): (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean> {
  const routed = modules.filter((m) => m.http);
  return async (req, res, path) => {
    const module = routed.find((m) => m.http!.prefixes.some((prefix) => path.startsWith(prefix)));
    if (!module) return false;
    if (target.kind === 'embedded') await module.http!.handle(target.runtime, req, res, path);
    else await forward(req, res, new URL(req.url ?? path, target.urls[module.name]));
    return true;
  };
}

async function forward(req: IncomingMessage, res: ServerResponse, url: URL) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  let body: Blob | undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_FORWARDED_BODY) {
        res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end('Body too large');
      }
      chunks.push(chunk);
    }
    body = new Blob(chunks.map((c) => new Uint8Array(c)));
  }
  const answer = await fetch(url, { method: req.method, headers, body, redirect: 'manual' });
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!NOT_FORWARDED.has(name)) out[name] = value;
  });
  res.writeHead(answer.status, out);
  res.end(Buffer.from(await answer.arrayBuffer()));
}
