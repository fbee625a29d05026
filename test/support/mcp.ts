import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { testServer } from './server.ts';

/**
 * A real MCP client over Streamable HTTP, optionally with a Bearer credential, at `/mcp` or one of
 * its views (`path`: `/mcp/readonly`, `/mcp/x/booking`), with any other headers (X-MCP-Toolsets).
 */
export async function mcpClient(token?: string, options: { path?: string; headers?: Record<string, string>; base?: string } = {}): Promise<Client> {
  const url = options.base ?? (await testServer()).url;
  const client = new Client({ name: 'platform-tests', version: '1.0.0' });
  const headers = { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...options.headers };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}${options.path ?? '/mcp'}`), { requestInit: { headers } }));
  // Listing the tools makes the client check every later result against its tool's outputSchema
  // (the SDK caches a validator per tool): every MCP call in the suite checks its output shape.
  await client.listTools();
  return client;
}

/** Calls a tool and returns its structured result; throws with the error text when it fails. */
export async function callTool<T = any>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${(result.content as any[])[0]?.text}`);
  return result.structuredContent as T;
}

/** Calls a tool that must fail; returns the error body `{ code, message, details }`. */
export async function toolError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ code: string; message: string; details?: any }> {
  const result = await client.callTool({ name, arguments: args });
  if (!result.isError) throw new Error(`${name} should have failed: ${JSON.stringify(result.structuredContent)}`);
  const text = (result.content as any[])[0]?.text ?? '';
  try {
    return JSON.parse(text).error;
  } catch {
    return { code: 'PROTOCOL', message: text };
  }
}
