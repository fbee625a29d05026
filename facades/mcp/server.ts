import { VIA_HEADER } from '../../subgraphs/kernel/audit.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../../subgraphs/kernel/config.ts';
import { idempotencyScope, requestHash, withIdempotency, type IdempotencyRuntime } from '../../subgraphs/kernel/idempotency.ts';
import { toErrorBody, type ErrorBody } from '../errors.ts';
import { canonicalEnums } from '../json-schema.ts';
import { unsafeValue, validator } from '../validate.ts';
import { IDEMPOTENCY_ARG, loadTools, type ToolDefinition } from './registry.ts';

type Caller = { kind: 'anonymous' } | { kind: 'merchant'; authorization: string };

/**
 * MCP over stateless Streamable HTTP at /mcp: a server and transport per request, the tools the
 * caller may use registered on it, each tool one GraphQL operation run through the gateway with
 * the caller's Authorization.
 */
export function createMcpFacade(gateway: GatewayRuntime, schema: GraphQLSchema, config: Config, runtime: IdempotencyRuntime) {
  const tools = loadTools(schema);
  const validators = new Map(tools.map((t) => [t.name, validator(t.inputSchema)]));
  const allowedHosts = new Set(['localhost', '127.0.0.1', '[::1]', new URL(config.publicUrl).hostname, ...(process.env.MCP_ALLOWED_HOSTS ?? '').split(',').filter(Boolean)]);

  const graphql = async (query: string, variables: Record<string, unknown>, req: IncomingMessage, authorization?: string, toolName?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };
    if (authorization) headers.authorization = authorization;
    // The audit log names the tool a write came through.
    if (toolName) headers[VIA_HEADER] = `mcp ${toolName}`;
    if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
    // Naming another company than the credential's is refused here as on REST and GraphQL.
    const company = req.headers['x-company-id'];
    if (typeof company === 'string' && company) headers['x-company-id'] = company;
    const res = await gateway.fetch('http://router.internal/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    return { status: res.status, result: (await res.json()) as { data?: Record<string, any> | null; errors?: any[] } };
  };

  /** Who is calling: nobody (signup tools only), a merchant, or a refusal. */
  const identify = async (req: IncomingMessage): Promise<Caller | { status: number; message: string }> => {
    const authorization = req.headers.authorization;
    if (!authorization) return { kind: 'anonymous' };
    if (!/^Bearer\s+\S+$/i.test(authorization)) return { status: 401, message: 'Authorization must be "Bearer <API key or merchant token>"' };
    const { result } = await graphql('{ viewer { kind } }', {}, req, authorization);
    const kind = result.data?.viewer?.kind;
    if (kind === 'merchant') return { kind: 'merchant', authorization };
    if (kind === 'customer') return { status: 403, message: 'A customer token cannot use merchant tools' };
    return { status: 401, message: result.errors?.[0]?.message ?? 'Invalid credential' };
  };

  /**
   * The tools the caller may use, listed with the JSON Schemas derived from their operations. The
   * arguments are checked here, before anything runs, so a bad one answers like every other error:
   * an `isError` result carrying BAD_USER_INPUT and the offending field.
   */
  const buildServer = (caller: Caller, req: IncomingMessage) => {
    const server = new Server({ name: 'service-platform', version: '6.0.0' }, { capabilities: { tools: {} } });
    const visible = tools.filter((tool) => caller.kind === 'merchant' || tool.public);
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: visible.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as { type: 'object' },
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const result = await callTool(request.params.name, request.params.arguments ?? {});
      // An error names the request's id (router/edge.ts), for the client to quote when reporting it.
      const requestId = req.headers['x-request-id'];
      if (!result.isError || typeof requestId !== 'string') return result;
      return errorResult({ ...(result.structuredContent.error as ErrorBody), requestId });
    });
    const callTool = async (name: string, raw: Record<string, unknown>): Promise<ToolResult> => {
      const tool = visible.find((t) => t.name === name);
      if (!tool) return errorResult({ code: 'NOT_FOUND', message: `Tool ${name} not found` });
      const args = checkArguments(tool, raw);
      if ('error' in args) return errorResult(args.error);
      return call(tool, args.value, req, caller.kind === 'merchant' ? caller.authorization : undefined);
    };
    return server;
  };

  /**
   * The arguments against the tool's schema (enum values in any case, as before they were enums),
   * after the checks every input gets (depth, control characters); the first problem names its field.
   */
  const checkArguments = (tool: ToolDefinition, raw: Record<string, unknown>): { value: Record<string, unknown> } | { error: ErrorBody } => {
    const value = canonicalEnums(tool.inputSchema, raw) as Record<string, unknown>;
    // The schema first: it names a typed field's own bound. Neither walk goes deeper than the schema or MAX_JSON_DEPTH.
    const problem = validators.get(tool.name)!(value) ?? unsafeValue(raw);
    if (!problem) return { value };
    return { error: { code: 'BAD_USER_INPUT', message: `${problem.field}: ${problem.problem}`, details: { field: problem.field } } };
  };

  /** The tool's result, and the HTTP status of its error code (200 when it succeeded). */
  const run = async (tool: ToolDefinition, variables: Record<string, unknown>, req: IncomingMessage, authorization?: string): Promise<{ status: number; result: ToolResult }> => {
    const { status, result } = await graphql(tool.query, variables, req, authorization, tool.name);
    if (result.errors?.length) {
      const error = toErrorBody(result.errors[0], status);
      return { status: error.status, result: errorResult(error.body) };
    }
    const value = result.data?.[tool.rootField] ?? null;
    const structured = value && typeof value === 'object' && !Array.isArray(value) ? value : { result: value };
    return { status: 200, result: { content: [{ type: 'text' as const, text: JSON.stringify(value) }], structuredContent: structured } };
  };

  const call = async (tool: ToolDefinition, args: Record<string, unknown>, req: IncomingMessage, authorization?: string): Promise<ToolResult> => {
    const { [IDEMPOTENCY_ARG]: key, ...variables } = args;
    if (tool.readOnly || typeof key !== 'string') return (await run(tool, variables, req, authorization)).result;
    const request = {
      scope: idempotencyScope({ authorization, 'x-company-id': req.headers['x-company-id'] as string | undefined, 'x-forwarded-host': req.headers.host }),
      key,
      fingerprint: requestHash(tool.name, variables),
      field: IDEMPOTENCY_ARG,
    };
    try {
      const answer = await withIdempotency(runtime, request, async () => {
        const { status, result } = await run(tool, variables, req, authorization);
        return { status, body: JSON.stringify(result) };
      });
      return JSON.parse(answer.body);
    } catch (error) {
      const { status, body } = toErrorBody(error as Error);
      if (status >= 500) console.error('[mcp] idempotency', error);
      return errorResult(body);
    }
  };

  return async (req: IncomingMessage, res: ServerResponse) => {
    let hostname: string | undefined;
    try {
      hostname = new URL(`http://${req.headers.host}`).hostname;
    } catch {}
    // DNS-rebinding protection: only our own host names may reach the tools.
    if (!hostname || !allowedHosts.has(hostname)) return rpcError(res, 403, `Host not allowed: ${req.headers.host}`);
    if (req.method !== 'POST') return rpcError(res, 405, 'Method not allowed; this server is stateless, use POST', { allow: 'POST' });
    const caller = await identify(req);
    if ('status' in caller) {
      return rpcError(res, caller.status, caller.message, caller.status === 401 ? { 'www-authenticate': `Bearer realm="mcp", error="invalid_token"` } : {});
    }
    const server = buildServer(caller, req);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
}

type ToolResult = { isError?: boolean; content: { type: 'text'; text: string }[]; structuredContent: Record<string, unknown> };

const errorResult = (error: ErrorBody & { requestId?: string }): ToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }], structuredContent: { error } });

function rpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
