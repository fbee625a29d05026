import { execute, type GraphQLSchema } from 'graphql';
import { createGatewayRuntime, type GatewayPlugin, type GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import type { ExecutionResult, Executor } from '@graphql-tools/utils';
import { RequestContext } from '../subgraphs/kernel/context.ts';
import type { Runtime } from '../subgraphs/kernel/runtime.ts';
import { maskError } from '../subgraphs/kernel/federation.ts';
import { loadQueryLimits, type QueryLimits } from '../subgraphs/kernel/config.ts';
import { limitPlugins } from './limits.ts';
import { useInputGuard } from './input-guard.ts';
import { useRateLimits } from './rate-limits.ts';
import { forwardedHeaders, useErrorAnswers } from './edge.ts';
import { renderGraphiQL } from './graphiql.ts';
import { maskGatewayError } from './subgraph-errors.ts';
import { httpTransports } from './subgraph-transport.ts';
import { createFastPath, takeHandedOver, type FastPath, type FastPathTransport } from './fast-path.ts';

/**
 * Executes a subgraph schema in this process. The subgraph gets a context of its own, built from
 * the client's request headers exactly as a subgraph server builds it from forwarded headers.
 */
export function inProcessExecutor(name: string, schema: GraphQLSchema, runtime: Runtime): Executor {
  return async (request) => {
    const incoming: Request | undefined = request.context?.request;
    // The fast path (router/fast-path.ts) may have run this very operation already: its result is taken as it is.
    let result = takeHandedOver(request.context, name)?.result;
    if (!result) {
      const headers = incoming ? forwardedHeaders(incoming) : {};
      const contextValue = new RequestContext(runtime, (header) => (headers as Record<string, string>)[header]);
      result = await execute({
        schema,
        document: request.document,
        variableValues: request.variables,
        operationName: request.operationName,
        contextValue,
        rootValue: request.rootValue,
      });
    }
    // The request id is read here, not forwarded: the gateway merges identical in-flight subgraph
    // requests only when their headers match, and an id per request would make every one distinct.
    const requestId = incoming?.headers.get('x-request-id');
    return (result.errors ? { ...result, errors: result.errors.map((e) => maskError(e, requestId)) } : result) as ExecutionResult;
  };
}

/** Headers that differ per request without changing what an operation reads. */
const PER_REQUEST_HEADERS = new Set([
  'x-request-id',
  'traceparent',
  'tracestate',
  'user-agent',
  'accept',
  'accept-encoding',
  'accept-language',
  'connection',
  'content-length',
  'content-type',
  'keep-alive',
  'origin',
  'referer',
]);

/** Where the subgraphs are: their schemas in this process, or their processes (at the URLs the supergraph names, also given here for the fast path). */
export type SubgraphTransport = FastPathTransport | { kind: 'http'; urls?: undefined };

export interface GatewayOptions {
  /** What one operation may ask (router/limits.ts). */
  limits?: QueryLimits;
  /** The platform whose counters rate-limit and meter every operation (router/rate-limits.ts); none when only planning (the build). */
  runtime?: Runtime;
  /** Plugins after the router's own, before the fast path (tests count what the pipeline sees with one). */
  plugins?: GatewayPlugin[];
}

export type Gateway = GatewayRuntime & { fastPath: FastPath };

/** The gateway over a supergraph: the one pipeline every interface's operations run through. */
export function createGateway(supergraph: string, transport: SubgraphTransport, options: GatewayOptions = {}): Gateway {
  const limits = options.limits ?? loadQueryLimits();
  const executors =
    transport.kind === 'embedded'
      ? new Map([...transport.schemas].map(([name, schema]) => [name, inProcessExecutor(name, schema, transport.runtime)]))
      : undefined;
  const fastPath: FastPath =
    transport.kind === 'embedded' || transport.urls ? createFastPath(supergraph, transport) : { served: 0, enabled: false, plugin: {} };
  const gateway = createGatewayRuntime({
    // As a function (read once: there is no pollingInterval). Given the text itself, Hive parses it
    // whole only to tell it from a path or a URL, before parsing it again to build the schema.
    supergraph: () => supergraph,
    // The query planner of Hive Router (Rust, through N-API) instead of the JavaScript one:
    // measured ~30% less router CPU per request over the same subgraphs.
    unifiedGraphHandler,
    logging: (process.env.GATEWAY_LOG ?? 'error') as 'error',
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: {
      title: 'Service platform GraphQL',
      defaultQuery: [
        '# The whole supergraph. Merchant operations need an API key: in Headers below, send',
        '#   { "authorization": "Bearer svc_mcp_…" }',
        '# Storefront and customer operations name the tenant: { "x-company-id": "<company id>" }.',
        '# How to get a key, the guides and the REST reference: /',
        '{',
        '  company { id name }',
        '}',
        '',
      ].join('\n'),
    },
    // GraphiQL from the installed package, its script, style and workers served by the router as
    // cacheable files (router/graphiql.ts): it loads with no internet (the default fetches them from a CDN).
    renderGraphiQL,
    // CORS is decided once for every interface (router/cors.ts); the gateway adds none of its own.
    cors: false,
    // Subgraph errors reach clients with their own code and message, without internal names.
    subgraphErrors: false,
    // What a client sees of any error (router/subgraph-errors.ts): catalogue errors as they are, anything else INTERNAL.
    maskedErrors: { maskError: maskGatewayError },
    // Identical queries in flight are executed once (each request still passes every plugin): the
    // same operation, variables and headers, but for those that cannot change what it reads.
    inboundInflightRequestDeduplication: { shouldIncludeHeader: (name) => !PER_REQUEST_HEADERS.has(name) },
    // In order: error wording, the input guard, the limits (before anything whose cost can grow
    // faster than the document), the rate limits and the meter, whatever else is registered, and
    // last the fast path, which only replaces how an operation every other plugin has seen is executed.
    plugins: () => [
      useErrorAnswers(),
      useInputGuard(),
      ...limitPlugins(supergraph, limits),
      ...(options.runtime ? [useRateLimits(options.runtime)] : []),
      ...(options.plugins ?? []),
      useHandedOverAnswers(),
      fastPath.plugin,
    ],
    ...(executors
      ? {
          transports: {
            http: {
              getSubgraphExecutor: ({ subgraphName }: { subgraphName: string }) => {
                const executor = executors.get(subgraphName);
                if (!executor) throw new Error(`No in-process subgraph "${subgraphName}"`);
                return executor;
              },
            },
          },
        }
      : { transports: httpTransports, propagateHeaders: { fromClientToSubgraphs: ({ request }: { request: Request }) => forwardedHeaders(request) } }),
  });
  return Object.assign(gateway, { fastPath });
}

/**
 * A subgraph fetch over HTTP answered with what the fast path (router/fast-path.ts) already got
 * from that subgraph for this operation, instead of asking it again.
 */
function useHandedOverAnswers() {
  return {
    onFetch({ context, url, endResponse }: { context: unknown; url: string; endResponse(response: Response): void }) {
      const answer = takeHandedOver(context, url)?.response;
      if (answer) endResponse(new Response(answer.body.toString('utf8'), { status: answer.status, headers: { 'content-type': answer.type } }));
    },
  };
}
