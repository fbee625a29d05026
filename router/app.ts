import 'reflect-metadata';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import type { GatewayPlugin, GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { createServerAdapter } from '@whatwg-node/server';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { toErrorBody } from '../facades/errors.ts';
import { VIA_HEADER } from '../subgraphs/kernel/audit.ts';
import { createMcpFacade, type McpFacade } from '../facades/mcp/server.ts';
import { createToolRoutes, toolOperations, toolRoutes } from '../facades/rest/tool-routes.ts';
import { PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from '../facades/mcp/guide.ts';
import { serveBuiltToolRegistry } from '../facades/mcp/registry.ts';
import { createRestFacade, serveBuiltRestSchema, type RestFacade } from '../facades/rest/facade.ts';
import { createLegacyRoutes } from '../facades/rest/legacy.ts';
import type { Config, QueryLimits } from '../subgraphs/kernel/config.ts';
import {
  IDEMPOTENCY_CLAIM_HEADER,
  idempotencyScope,
  idempotentFetch,
  requestHash,
  type Answer,
  type IdempotencyRuntime,
} from '../subgraphs/kernel/idempotency.ts';
import { serveBuiltSubgraphs } from '../subgraphs/kernel/federation.ts';
import { recentMessages } from '../subgraphs/kernel/outbox/index.ts';
import { serveBuiltSupergraph, subgraphUrl, supergraphOf } from './compose.ts';
import { parseWithinLimits, serveBuiltCostAnnotations } from './limits.ts';
import { createCors } from './cors.ts';
import { docsRoute } from './docs.ts';
import { assignRequestId, edgeRequest, forwardedHeaders, readBody, refuse, surfaceOf, usableHost } from './edge.ts';
import { createGateway, type Gateway } from './gateway.ts';
import { moduleRoutes } from './module-routes.ts';
import { MODULES, SUBGRAPH_PORTS } from './modules.ts';
import { startPlatform, type Platform } from './platform.ts';
import { builtBeside } from './startup.ts';

export interface App {
  server: Server;
  /** The one pipeline of every interface; `gateway.fastPath` is a step of its execution (router/fast-path.ts). */
  gateway: Gateway;
  /** The MCP facade at /mcp (facades/mcp/server.ts). */
  mcp: McpFacade;
  /** The REST facade under /v6 (facades/rest/facade.ts). */
  rest: RestFacade;
  platform: Platform;
  close(): Promise<void>;
}

/**
 * What `npm run build` worked out beside a built entry point (dist/), for createApp to take instead
 * of working it out at start: the supergraph it checked, the MCP tool registry and the REST schema
 * from that supergraph, each subgraph's SDL. From source (tsx) there are none.
 */
export function serveBuilt(entryUrl: string): void {
  serveBuiltSupergraph(builtBeside(entryUrl, './supergraph.graphql'));
  serveBuiltToolRegistry(builtBeside(entryUrl, './mcp-tools.json'));
  serveBuiltSubgraphs(builtBeside(entryUrl, './subgraphs.json'));
  serveBuiltRestSchema(builtBeside(entryUrl, './rest-schema.json'));
  serveBuiltCostAnnotations(builtBeside(entryUrl, './cost-annotations.json'));
}

/**
 * The router process. Embedded: every subgraph runs here, executed in-process by the gateway.
 * Distributed: subgraphs run elsewhere and the gateway reaches them over HTTP; this process
 * still opens the database for the kernel (outbox reads, readiness).
 */
export async function createApp(
  config: Config,
  options: { topology?: 'embedded' | 'distributed'; pglite?: PGlite; subgraphUrls?: Record<string, string>; plugins?: GatewayPlugin[] } = {},
): Promise<App> {
  const topology = options.topology ?? 'embedded';
  const modules = topology === 'embedded' ? MODULES : [];
  const platform = await startPlatform(config, modules, { pglite: options.pglite });
  const subgraphs = [];
  for (const m of MODULES) {
    subgraphs.push({
      name: m.name,
      schema: platform.schemas.get(m.name) ?? (await m.buildSchema()),
      url: options.subgraphUrls?.[m.name] ?? subgraphUrl(m.name, SUBGRAPH_PORTS[m.name]),
    });
  }
  const supergraphSdl = await supergraphOf(subgraphs);
  const gateway = createGateway(
    supergraphSdl,
    topology === 'embedded'
      ? { kind: 'embedded', schemas: new Map(subgraphs.map((s) => [s.name, s.schema])), runtime: platform.runtime }
      : { kind: 'http', urls: new Map(subgraphs.map((s) => [s.name, s.url])) },
    { limits: config.queryLimits, runtime: platform.runtime, plugins: options.plugins },
  );
  // SOFA and the MCP tool registry need the gateway's schema loaded before they serve.
  const apiSchema = await gateway.getSchema();
  const mcp = createMcpFacade(gateway, apiSchema, config, platform.runtime);
  const merchantToolRoutes = toolRoutes(mcp.tools);
  const merchantTools = createToolRoutes(merchantToolRoutes, mcp.invoke);
  const rest = createRestFacade(gateway, apiSchema, config, platform.runtime, toolOperations(merchantToolRoutes));
  const legacy = createLegacyRoutes({
    config,
    db: platform.runtime.db,
    now: () => new Date(platform.runtime.clock.now()),
    rest: rest.fetch,
    graphql: async (request) => gateway.fetch(request),
    invoke: mcp.invoke,
  });
  const idempotentGraphql = idempotentGateway(gateway, platform.runtime, config.queryLimits);
  const cors = createCors(config, platform.runtime.db);
  const subgraphRoutes = moduleRoutes(
    MODULES,
    topology === 'embedded'
      ? { kind: 'embedded', runtime: platform.runtime }
      : { kind: 'http', urls: Object.fromEntries(subgraphs.map((s) => [s.name, s.url])) },
  );
  let ready = true;

  const server = createServer((req: IncomingMessage, res: ServerResponse) =>
    edgeRequest.run({ address: req.socket.remoteAddress ?? 'unknown', res }, () => handle(req, res)),
  );
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '/').split('?')[0];
    const requestId = assignRequestId(req, res);
    // An idempotency claim reaches a subgraph from the kernel only (kernel/idempotency.ts), never from a client.
    delete req.headers[IDEMPOTENCY_CLAIM_HEADER];
    try {
      // CORS first: a preflight is answered here, and every answer below carries the headers.
      if (await cors(req, res)) return;
      const surface = surfaceOf(path);
      // Everything not an interface's own path is the REST facade's to answer (its 404 included).
      if (!usableHost(req.headers.host))
        return void refuse(req, res, surface ?? 'rest', 'BAD_USER_INPUT', 'Host: must be a host name, with its port if any', { field: 'Host' });
      if (surface && (await readBody(req, res, surface, config.maxBodyBytes))) return;
      if (path === '/graphql') {
        // Only the facades say which interface a write came through (the audit log); never a client.
        delete req.headers[VIA_HEADER];
        if (req.method === 'POST' && req.headers['idempotency-key'] !== undefined) return await idempotentGraphql(req, res);
        return await gateway(withParsedBody(req), res);
      }
      // /mcp and its views (/mcp/readonly, /mcp/dynamic, /mcp/x/<toolsets>[/readonly]: facades/mcp/views.ts).
      if (surface === 'mcp') return await mcp(req, res);
      // RFC 9728: how a client gets the key /mcp asks for (its 401 points here); also at the path-suffixed form.
      if (path === PROTECTED_RESOURCE_PATH || path === `${PROTECTED_RESOURCE_PATH}/mcp`) return json(res, 200, protectedResourceMetadata(config.publicUrl));
      if (path === '/healthz') return json(res, 200, { status: 'ok' });
      if (path === '/readyz') {
        const queue = ready ? await platform.runtime.jobs.status().catch(() => null) : null;
        return json(res, queue ? 200 : 503, { status: queue ? 'ready' : 'unavailable', topology, queue });
      }
      if (path === '/dev/outbox' && !config.production) {
        const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
        if (!to) return json(res, 400, { success: false, error: { code: 'BAD_USER_INPUT', message: 'to: is required', details: { field: 'to' } } });
        return json(res, 200, { success: true, data: { items: await recentMessages(platform.runtime.db.orm.em.fork(), to) } });
      }
      // Subgraphs' own plain routes (commerce: payment webhooks, the sandbox's payment page).
      if (await subgraphRoutes(req, res, path)) return;
      const doc = await docsRoute(path, config, req.headers['accept-encoding']);
      if (doc) {
        res.writeHead(200, {
          'content-type': doc.type,
          ...(doc.cache ? { 'cache-control': doc.cache, vary: 'accept-encoding' } : {}),
          ...(doc.encoding ? { 'content-encoding': doc.encoding } : {}),
        });
        return res.end(doc.body);
      }
      if (await legacy(req, res, path)) return;
      if (await merchantTools(req, res, path)) return;
      return await rest(req, res);
    } catch (error) {
      console.error(`[router] unhandled (request ${requestId})`, error);
      if (!res.headersSent) json(res, 500, { success: false, error: { code: 'INTERNAL', message: 'Internal server error', requestId } });
    }
  }
  server.keepAliveTimeout = 5000;

  return {
    server,
    gateway,
    mcp,
    rest,
    platform,
    async close() {
      ready = false;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await gateway.dispose();
      await platform.stop();
    },
  };
}

/**
 * POST /graphql with an Idempotency-Key: a mutation runs once per key (see withIdempotency);
 * anything else, a malformed body included, goes to the gateway unchanged.
 */
function idempotentGateway(gateway: GatewayRuntime, runtime: IdempotencyRuntime, limits: QueryLimits) {
  return createServerAdapter(async (request: Request) => {
    // The body is read once: to find the operation, then again from this text by the gateway.
    const text = await request.text();
    const forward = async () => gateway.fetch(request.url, { method: request.method, headers: request.headers, body: text });
    const mutation = mutationRequest(text, limits.tokens);
    if (!mutation) return forward();
    const { query, variables = null, operationName = null } = mutation;
    const key = request.headers.get('idempotency-key')!;
    const fingerprint = requestHash(query, variables, operationName);
    return idempotentFetch(runtime, { scope: idempotencyScope(forwardedHeaders(request)), key, fingerprint, transient: failedInternally }, forward).catch(
      (error) => {
        const { status, body } = toErrorBody(error);
        if (status >= 500) console.error('[graphql] idempotency', error);
        return Response.json({ errors: [{ message: body.message, extensions: { code: body.code, ...body.details } }] }, { status });
      },
    );
  });
}

/** GraphQL answers an internal failure with 200 too; like a 5xx it is not kept, so a retry runs again. */
function failedInternally({ body }: Answer): boolean {
  try {
    return (JSON.parse(body).errors ?? []).some((e: { message?: string; extensions?: Record<string, unknown> }) => toErrorBody(e).status >= 500);
  } catch {
    return true;
  }
}

/** The GraphQL request of a POST body when the operation it runs is a mutation. */
function mutationRequest(text: string, maxTokens: number): { query: string; variables?: unknown; operationName?: string } | undefined {
  try {
    const body = JSON.parse(text);
    if (typeof body?.query !== 'string') return undefined;
    const operations = parseWithinLimits(body.query, { maxTokens }).definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    const operation = body.operationName ? operations.find((o) => o.name?.value === body.operationName) : operations.length === 1 ? operations[0] : undefined;
    return operation?.operation === 'mutation' ? body : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The request with its JSON body, read at the door (router/edge.ts), as the value it holds: the
 * gateway's server adapter then hands that value to the request parser as it is (@whatwg-node/
 * server's parsed-body path, for frameworks that parse bodies), instead of streaming the bytes
 * again through a size-limiting transform and parsing them (the edge has already bounded them).
 * A body that is not a JSON object or array stays bytes, for the gateway to refuse in its words.
 */
function withParsedBody(req: IncomingMessage & { body?: unknown }): IncomingMessage {
  if (!Buffer.isBuffer(req.body)) return req;
  try {
    const parsed: unknown = JSON.parse(req.body.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && Object.keys(parsed).length) req.body = parsed;
  } catch {
    // Not JSON: the gateway answers it.
  }
  return req;
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
