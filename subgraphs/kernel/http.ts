/** What a subgraph's plain HTTP routes (kernel/module.ts HttpRoutes) share: reading a bounded body, answering JSON or text. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The body as received (a webhook's signature is over these bytes), or null past `maxBytes`. */
export async function readRaw(req: IncomingMessage, maxBytes = 64 * 1024): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export function sendText(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(body);
}
