import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolRequest, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { Config } from '../../subgraphs/kernel/config.ts';
import { AppError, ERROR_STATUS, type ErrorCode } from '../../subgraphs/kernel/errors.ts';
import { idempotencyScope, requestHash, withIdempotency, type IdempotencyRuntime } from '../../subgraphs/kernel/idempotency.ts';
import { headerReader, resolvePrincipal, type Principal } from '../../subgraphs/kernel/principal.ts';
import { grants, scopeNeeded } from '../../subgraphs/kernel/scopes.ts';
import type { Toolset } from '../../subgraphs/kernel/toolsets.ts';
import { toErrorBody, type ErrorBody } from '../errors.ts';
import { canonicalEnums } from '../json-schema.ts';
import { unsafeValue, validator } from '../validate.ts';
import { describeTool, DISCOVERY_TOOLS, searchTools, toolsetsOf, type DiscoveryToolName } from './discovery.ts';
import { instructions, keyRequired, wwwAuthenticate } from './guide.ts';
import { digitsAsStrings, QUOTE_HINT } from './input-schema.ts';
import { listedTool } from './listing.ts';
import { createOperationRunner, type OperationHeaders } from './operations.ts';
import { IDEMPOTENCY_ARG, loadTools, type ToolDefinition } from './registry.ts';
import { plainToolCall, writeResult } from './tool-call.ts';
import { FULL_VIEW, viewOf, type ToolView } from './views.ts';

type CallerKind = 'anonymous' | 'merchant';

/**
 * What a tool handler knows of the request it answers. It travels as the request's `auth`, which
 * the SDK's transport hands to every handler as `extra.authInfo`: the handlers are written once for
 * every request, and nothing about one request is captured in a closure another could reach.
 */
interface Call extends OperationHeaders {
  kind: CallerKind;
  requestId?: string;
  /** X-Company-Id as sent (empty included): part of the idempotency scope. */
  companyHeader?: string;
  /** What this connection shows of the tools (views.ts); REST routes see them all. */
  view: ToolView;
  /** A merchant credential's scopes (kernel/scopes.ts): tools it may not use are not listed. */
  scopes: readonly string[];
}

type McpRequest = IncomingMessage & { auth?: AuthInfo };

/**
 * A REST route's arguments read from its request (tool-routes.ts), or its refusal of them: read
 * only once the caller is known to be a merchant, so a caller without a key learns nothing of them.
 */
export type RouteArguments = () => { args: Record<string, unknown> } | { refused: { status: number; body: unknown } };

export type McpFacade = ReturnType<typeof createMcpFacade>;

/**
 * MCP over stateless Streamable HTTP at /mcp. Each tool is one GraphQL operation, executed
 * in-process through the gateway's pipeline (operations.ts) with the caller's Authorization.
 *
 * Per request, only what must be: the caller is identified by the kernel's principal resolution
 * (principal.ts: cached per credential, forgotten at once when the credential is revoked, here or
 * in another process). A single `tools/call` (most of the traffic) is then answered by the same
 * handler without the SDK (tool-call.ts, the plain path); anything else gets a transport and a
 * `Server` to join it to. Everything else is built once: the tool lists per kind of caller, the
 * argument validators (each on its first use), the handlers, the parsed documents, and the JSON
 * Schema validator the SDK would otherwise build per server (an Ajv instance).
 *
 * Why still a `Server` per request rather than one per kind of caller: the SDK's `Protocol` holds
 * one transport at a time (`connect` throws while one is attached, and an answer goes out on the
 * transport attached when its request arrived), so a shared server cannot serve concurrent
 * stateless requests, and a pool of reused servers would carry one client's `initialize` state
 * (client capabilities and version) into another's request. Constructing one is cheap once its
 * parts are shared: about 0.03 ms with the shared validator and the prebuilt handlers, against
 * 0.8 ms with an Ajv of its own (SDK 1.32, measured) and some 5 ms of CPU for a `list_services` call.
 */
export function createMcpFacade(gateway: GatewayRuntime, schema: GraphQLSchema, config: Config, runtime: IdempotencyRuntime) {
  const tools = loadTools(schema);
  const validators = new Map(tools.map((t) => [t.name, validator(t.argumentSchema)]));
  const byName = new Map(tools.map((t) => [t.name, t]));
  const serverInstructions = instructions(config.publicUrl);
  const allowedHosts = new Set([
    'localhost',
    '127.0.0.1',
    '[::1]',
    new URL(config.publicUrl).hostname,
    ...(process.env.MCP_ALLOWED_HOSTS ?? '').split(',').filter(Boolean),
  ]);
  const runOperation = createOperationRunner(gateway);

  /** The tools each kind of caller may use: a merchant all, nobody the signup pair. */
  const visible: Record<CallerKind, Map<string, ToolDefinition>> = {
    anonymous: new Map(tools.filter((t) => t.public).map((t) => [t.name, t])),
    merchant: new Map(tools.map((t) => [t.name, t])),
  };
  /** Why a connection's view leaves a tool out, or undefined when it shows it. */
  const hiddenBy = (view: ToolView, tool: ToolDefinition): string | undefined => {
    if (view.readOnly && !tool.readOnly) return `${tool.name} writes, and this connection is read-only (/mcp/readonly or X-MCP-Readonly)`;
    if (view.toolsets && !view.toolsets.has(tool.toolset))
      return `${tool.name} is in the ${tool.toolset} toolset, which this connection does not show (/mcp/x/<toolsets> or X-MCP-Toolsets)`;
    return undefined;
  };
  const inView = (call: Call) =>
    [...visible[call.kind].values()].filter(
      (tool) => !hiddenBy(call.view, tool) && (call.kind !== 'merchant' || grants(call.scopes, scopeNeeded(tool.toolset, !tool.readOnly))),
    );

  /**
   * tools/list: the tools of the caller's view, or in dynamic mode the discovery tools only (which
   * any connection may call). Built once per kind of caller and view.
   */
  const listings = new Map<string, ListToolsResult['tools']>();
  const listingFor = (call: Call): ListToolsResult['tools'] => {
    const key = `${call.kind}|${[...(call.view.toolsets ?? [])].sort().join(',')}|${call.view.readOnly}|${call.view.dynamic}|${[...call.scopes].sort().join(',')}`;
    let listing = listings.get(key);
    if (!listing) {
      listing = (call.view.dynamic ? Object.values(DISCOVERY_TOOLS) : inView(call).map(listedTool)) as ListToolsResult['tools'];
      listings.set(key, listing);
    }
    return listing;
  };

  /**
   * Who is calling: nobody (signup tools only), a merchant, or a refusal. The principal is the one
   * every subgraph resolves from these headers (and finds in the same cache when the tool runs).
   */
  const identify = async (req: IncomingMessage): Promise<Call | { status: number; message: string }> => {
    const headers = operationHeaders(req);
    const requestId = typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'] : undefined;
    const companyHeader = req.headers['x-company-id'] as string | undefined;
    if (!headers.authorization) return { ...headers, kind: 'anonymous', requestId, companyHeader, view: FULL_VIEW, scopes: [] };
    if (!/^Bearer\s+\S+$/i.test(headers.authorization)) return { status: 401, message: 'Authorization must be "Bearer <API key or merchant token>"' };
    let principal: Principal;
    try {
      principal = await resolvePrincipal(
        runtime.db,
        config.jwtSecret,
        headerReader({ authorization: headers.authorization, 'x-company-id': headers.companyId, 'x-forwarded-host': headers.host }),
      );
    } catch (error) {
      // As the GraphQL answer carried it: our own refusal in its words and with its status (401 for
      // a bad credential, 404 for an unknown company, 429 …); anything else is our failure, a 500.
      if (error instanceof AppError) return { status: toErrorBody(error).status, message: error.message };
      console.error(`[mcp] identifying the caller${requestId ? ` (request ${requestId})` : ''}`, error);
      return { status: 500, message: 'Internal server error' };
    }
    if (principal.kind === 'merchant') {
      // A key's own defaults, which a connection's address or headers override (read-only stays).
      const view = { toolsets: principal.mcp.toolsets ? new Set(principal.mcp.toolsets as Toolset[]) : null, readOnly: principal.mcp.readOnly, dynamic: false };
      return { ...headers, kind: 'merchant', requestId, companyHeader, view, scopes: principal.scopes };
    }
    if (principal.kind === 'customer') return { status: 403, message: 'A customer token cannot use merchant tools' };
    return { status: 401, message: 'Invalid credential' };
  };

  const listTools = (_request: unknown, extra: { authInfo?: AuthInfo }) => ({ tools: listingFor(callOf(extra)) });

  /**
   * A tool call. The arguments are checked here, before anything runs, so a bad one answers like
   * every other error: an `isError` result carrying BAD_USER_INPUT and the offending field.
   */
  const callTool = (request: CallToolRequest, extra: { authInfo?: AuthInfo }): Promise<ToolResult> =>
    toolResult(callOf(extra), request.params.name, request.params.arguments ?? {});

  const toolResult = async (call: Call, name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const result = await answerTool(call, name, args);
    // An error names the request's id (router/edge.ts), for the client to quote when reporting it.
    if (!result.isError || !call.requestId) return result;
    return errorResult({ ...(JSON.parse(result.content[0].text).error as ErrorBody), requestId: call.requestId });
  };

  const answerTool = async (call: Call, name: string, raw: Record<string, unknown>): Promise<ToolResult> => {
    if (Object.hasOwn(DISCOVERY_TOOLS, name)) return discover(call, name as DiscoveryToolName, raw);
    const tool = visible[call.kind].get(name);
    // A merchant tool without a key: say how to get one, not that the tool does not exist.
    if (!tool && byName.has(name)) return errorResult(keyRequired(name, config.publicUrl));
    if (!tool) return errorResult({ code: 'NOT_FOUND', message: `Tool ${name} not found` });
    const hidden = hiddenBy(call.view, tool);
    if (hidden) return errorResult({ code: 'FORBIDDEN', message: hidden });
    const args = checkArguments(tool, raw);
    if ('error' in args) return errorResult(args.error);
    const result = await run(tool, args.value, call);
    // A code sent as a number and refused: it may have lost a leading zero; say how to send it.
    if (!result.isError) return result;
    const { error } = JSON.parse(result.content[0].text) as { error: ErrorBody };
    const field = error.details?.field;
    if (error.code !== 'BAD_USER_INPUT' || typeof field !== 'string' || typeof raw[field] !== 'number' || typeof args.value[field] !== 'string') return result;
    return errorResult({ ...error, message: `${error.message}${QUOTE_HINT}` });
  };

  const discoveryValidators = new Map(Object.values(DISCOVERY_TOOLS).map((t) => [t.name, validator(t.inputSchema)]));

  /** A discovery tool (discovery.ts), over the tools of the caller's view. */
  const discover = async (call: Call, name: DiscoveryToolName, args: Record<string, unknown>): Promise<ToolResult> => {
    const problem = discoveryValidators.get(name)!(args);
    if (problem) return errorResult({ code: 'BAD_USER_INPUT', message: `${problem.field}: ${problem.problem}`, details: { field: problem.field } });
    if (name === 'call_tool') {
      if (args.name === 'call_tool') return errorResult({ code: 'BAD_USER_INPUT', message: 'name: call_tool cannot call itself', details: { field: 'name' } });
      return answerTool(call, args.name as string, (args.arguments as Record<string, unknown> | undefined) ?? {});
    }
    const tools = inView(call);
    if (name === 'list_toolsets') return structuredResult({ items: toolsetsOf(tools) });
    if (name === 'search_tools')
      return structuredResult({
        items: searchTools(tools, args.query as string, args.toolset as string | undefined, (args.limit as number | undefined) ?? 10),
      });
    const tool = tools.find((t) => t.name === args.name);
    if (!tool)
      return errorResult({
        code: 'NOT_FOUND',
        message: `name: no tool ${String(args.name)} on this connection (search_tools finds them)`,
        details: { field: 'name' },
      });
    return structuredResult(describeTool(tool));
  };

  /**
   * The arguments against the tool's schema (enum values in any case, as before they were enums),
   * after the checks every input gets (depth, control characters); the first problem names its field.
   */
  const checkArguments = (tool: ToolDefinition, raw: Record<string, unknown>): { value: Record<string, unknown> } | { error: ErrorBody } => {
    const value = canonicalEnums(tool.argumentSchema, digitsAsStrings(tool.argumentSchema, raw)) as Record<string, unknown>;
    // The schema first: it names a typed field's own bound. Neither walk goes deeper than the schema or MAX_JSON_DEPTH.
    const problem = validators.get(tool.name)!(value) ?? unsafeValue(raw);
    if (!problem) return { value };
    // A number where a string belongs (and could not be taken as its digits): say how to send it.
    const hint = problem.problem === 'must be a string' && typeof valueAt(raw, problem.field) === 'number' ? QUOTE_HINT : '';
    return { error: { code: 'BAD_USER_INPUT', message: `${problem.field}: ${problem.problem}${hint}`, details: { field: problem.field } } };
  };

  /** The tool's result, and the HTTP status of its error code (200 when it succeeded). */
  const execute = async (tool: ToolDefinition, variables: Record<string, unknown>, call: Call): Promise<{ status: number; result: ToolResult }> => {
    const { status, result } = await runOperation(tool, variables, call);
    if (result.errors?.length) {
      const error = toErrorBody(result.errors[0], status);
      return { status: error.status, result: errorResult(error.body) };
    }
    const value = (result.data as Record<string, unknown> | null | undefined)?.[tool.rootField] ?? null;
    // As the tool's outputSchema says: the object itself, or { result } (see registry.ts).
    const wrap = tool.wrapped || !value;
    const text = JSON.stringify(value);
    const answer: ToolResult = { content: [{ type: 'text' as const, text }], structuredContent: wrap ? { result: value } : (value as Record<string, unknown>) };
    structuredJson.set(answer, wrap ? `{"result":${text}}` : text);
    return { status: 200, result: answer };
  };

  const run = async (tool: ToolDefinition, args: Record<string, unknown>, call: Call): Promise<ToolResult> => {
    const { [IDEMPOTENCY_ARG]: key, ...variables } = args;
    if (tool.readOnly || typeof key !== 'string') return (await execute(tool, variables, call)).result;
    const request = {
      scope: idempotencyScope({ authorization: call.authorization, 'x-company-id': call.companyHeader, 'x-forwarded-host': call.host }),
      key,
      fingerprint: requestHash(tool.name, variables),
      field: IDEMPOTENCY_ARG,
    };
    try {
      const answer = await withIdempotency(runtime, request, async () => {
        const { status, result } = await execute(tool, variables, call);
        return { status, body: JSON.stringify(result) };
      });
      return JSON.parse(answer.body);
    } catch (error) {
      const { status, body } = toErrorBody(error as Error);
      if (status >= 500) console.error('[mcp] idempotency', error);
      return errorResult(body);
    }
  };

  // The SDK validates elicitation answers with this; one for the process, not an Ajv per server.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const newServer = () => {
    const server = new Server(
      { name: 'service-platform', title: 'Service platform', version: '6.0.0' },
      { capabilities: { tools: {} }, instructions: serverInstructions, jsonSchemaValidator },
    );
    server.setRequestHandler(ListToolsRequestSchema, listTools);
    server.setRequestHandler(CallToolRequestSchema, callTool);
    return server;
  };

  /**
   * A tool called through its REST route (facades/rest/tool-routes.ts): the same caller check,
   * argument check, execution and idempotency as over MCP, answered as `{ status, body }` in the
   * REST envelope; the data is the tool's result (unwrapped when the tool wraps it as `{ result }`).
   * The arguments may be a function that reads them (RouteArguments), called after the caller check.
   */
  const invoke = async (req: IncomingMessage, name: string, given: Record<string, unknown> | RouteArguments): Promise<{ status: number; body: unknown }> => {
    const failure = (status: number, error: ErrorBody) => ({ status, body: { success: false, error } });
    const identified = await identify(req);
    // A REST route is one tool, whatever an MCP connection with this key would show.
    const call = 'status' in identified ? identified : { ...identified, view: FULL_VIEW };
    // The refusal's code: the catalogue's first with its status (401 UNAUTHENTICATED, 403 FORBIDDEN, …).
    if ('status' in call)
      return failure(call.status, {
        code: (Object.keys(ERROR_STATUS) as ErrorCode[]).find((c) => ERROR_STATUS[c] === call.status) ?? 'INTERNAL',
        message: call.message,
      });
    if (call.kind !== 'merchant')
      return failure(401, { code: 'UNAUTHENTICATED', message: 'A merchant API key or session is required (Authorization: Bearer svc_mcp_…)' });
    const args = typeof given === 'function' ? given() : { args: given };
    if ('refused' in args) return args.refused;
    const result = await answerTool(call, name, args.args);
    if (result.isError) {
      const { error } = JSON.parse(result.content[0].text) as { error: ErrorBody };
      return failure(ERROR_STATUS[error.code] ?? 500, error);
    }
    const tool = byName.get(name)!;
    const structured = result.structuredContent ?? { result: null };
    return { status: 200, body: { success: true, data: tool.wrapped ? structured.result : structured } };
  };

  const handler = async (req: McpRequest, res: ServerResponse) => {
    let hostname: string | undefined;
    try {
      hostname = new URL(`http://${req.headers.host}`).hostname;
    } catch {}
    // DNS-rebinding protection: only our own host names may reach the tools.
    if (!hostname || !allowedHosts.has(hostname)) return rpcError(res, 403, `Host not allowed: ${req.headers.host}`);
    if (req.method !== 'POST') return rpcError(res, 405, 'Method not allowed; this server is stateless, use POST', { allow: 'POST' });
    const view = viewOf(req);
    if ('status' in view) return rpcError(res, view.status, view.message);
    const identified = await identify(req);
    if ('status' in identified) {
      return rpcError(
        res,
        identified.status,
        identified.message,
        identified.status === 401 ? { 'www-authenticate': wwwAuthenticate(config.publicUrl, 'invalid_token') } : {},
      );
    }
    const call = {
      ...identified,
      view: { toolsets: view.toolsets ?? identified.view.toolsets, readOnly: view.readOnly || identified.view.readOnly, dynamic: view.dynamic },
    };
    // Set here only: whatever a client sends never becomes `auth`.
    const message = parsedBody(req);
    const plain = plainToolCall(req, message);
    if (plain) {
      writeResult(res, plain.id, serialized(await toolResult(call, plain.name, plain.arguments)));
      stats.plainCalls++;
      return;
    }
    req.auth = { token: call.authorization ?? '', clientId: call.kind, scopes: [], extra: { call } };
    const server = newServer();
    const { StreamableHTTPServerTransport } = await sdkTransport();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // Closing the server closes its transport.
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
  };
  /** How many calls the plain path answered (tool-call.ts), for the tests to tell the paths apart. */
  const stats = { plainCalls: 0 };
  return Object.assign(handler, { tools, invoke, stats });
}

/**
 * The SDK's transport module, loaded by the first request the plain path leaves to it. Loading it
 * loads Hono's Node adapter, which reads the global Request and Response at load and so makes Node
 * compile its own fetch implementation (undici): ~50–60 ms of a start on a 2-core guest, for what
 * most servers' traffic (tool calls) never uses.
 */
let transportModule: Promise<typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')> | undefined;
const sdkTransport = () => (transportModule ??= import('@modelcontextprotocol/sdk/server/streamableHttp.js'));

/** The request's call (set by the handler above before the transport sees the request). */
function callOf(extra: { authInfo?: AuthInfo }): Call {
  const call = extra.authInfo?.extra?.call as Call | undefined;
  if (!call) throw new Error('MCP request without its caller');
  return call;
}

const utf8 = new TextDecoder();

/**
 * The JSON-RPC message of a body the edge has already read (router/edge.ts), decoded as the SDK
 * decodes it, so the transport does not read it again through a web stream. Anything the SDK
 * would refuse (not JSON, over its size limit) is left to the SDK, which answers it in its words.
 */
function parsedBody(req: IncomingMessage): unknown {
  const body = (req as { body?: unknown }).body;
  if (!Buffer.isBuffer(body) || body.length > DEFAULT_MAX_REQUEST_BODY_SIZE) return undefined;
  try {
    return JSON.parse(utf8.decode(body));
  } catch {
    return undefined;
  }
}

/** The headers of the MCP request a tool's operation runs with. */
function operationHeaders(req: IncomingMessage): OperationHeaders {
  const authorization = req.headers.authorization;
  // Naming another company than the credential's is refused, as on REST and GraphQL.
  const company = req.headers['x-company-id'];
  return {
    ...(authorization ? { authorization } : {}),
    ...(typeof company === 'string' && company ? { companyId: company } : {}),
    ...(req.headers.host ? { host: req.headers.host } : {}),
  };
}

type ToolResult = { isError?: boolean; content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown> };

/**
 * An error is told in its text only: `structuredContent` is what the tool's outputSchema
 * describes, and clients check it against that schema (the SDK's Client does, error or not).
 */
const structuredResult = (value: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
});

const errorResult = (error: ErrorBody & { requestId?: string }): ToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify({ error }) }],
});

/**
 * The JSON of a result's structured content, for results whose text already is that JSON: the
 * answer then serializes the value once (the text is the same JSON, escaped as a string).
 */
const structuredJson = new WeakMap<ToolResult, string>();

/** A tool result as JSON, its members in the order the SDK's result schema gives them. */
function serialized(result: ToolResult): string {
  const structured = structuredJson.get(result) ?? (result.structuredContent && JSON.stringify(result.structuredContent));
  return `{"content":${JSON.stringify(result.content)}${structured ? `,"structuredContent":${structured}` : ''}${result.isError ? ',"isError":true' : ''}}`;
}

/** The value at a field path as validation names it (`customer.email`, `blocks[0].type`). */
function valueAt(value: unknown, field: string): unknown {
  return field
    .split(/\.|\[(\d+)\]/)
    .filter((k) => k)
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

function rpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
