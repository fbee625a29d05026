import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/** A `tools/call` request as the plain path answers it. */
export interface PlainToolCall {
  id: string | number;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The one message most MCP traffic is: a single `tools/call` request, posted as JSON with the
 * headers the SDK's stateless Streamable HTTP transport accepts. Such a request is answered here
 * (server.ts) with the same handler and the same JSON-RPC answer the SDK would give, without the
 * SDK's transport converting the Node request to a web Request and its Response back (Hono's
 * adapter), a `Server` joined to it, and the zod schemas the message and its result go through
 * there (measured: the SDK's share was about 0.5 ms of CPU per `list_services` call, as much as
 * the operation's own execution on PostgreSQL; see docs/performance.md).
 *
 * Anything else (initialize, tools/list, notifications, batches, `_meta` or `task` in the params,
 * a header the transport would refuse, a malformed message) is undefined here and goes to the SDK,
 * which answers it, or refuses it in its own words. The checks restate the transport's for a
 * POST (webStandardStreamableHttp.js `handlePostRequest`, SDK 1.32), conservatively: where a
 * request might be refused there, it is not taken here.
 */
export function plainToolCall(req: IncomingMessage, message: unknown): PlainToolCall | undefined {
  const accept = req.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(req.headers['content-type'])) return undefined;
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
  if (!isRecord(message) || message.jsonrpc !== '2.0' || message.method !== 'tools/call') return undefined;
  for (const key in message) if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return undefined;
  const { id, params } = message;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!isRecord(params) || typeof params.name !== 'string') return undefined;
  for (const key in params) if (key !== 'name' && key !== 'arguments') return undefined;
  if (params.arguments !== undefined && !isRecord(params.arguments)) return undefined;
  return { id: id as string | number, name: params.name, arguments: (params.arguments as Record<string, unknown> | undefined) ?? {} };
}

/** The JSON-RPC answer, as the SDK's transport writes one in JSON response mode. */
export function writeResult(res: ServerResponse, id: string | number, result: string): void {
  // Encoded once, then measured and written as bytes (a string would be scanned for its length,
  // then copied onto the headers and encoded again).
  const body = Buffer.from(`{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
