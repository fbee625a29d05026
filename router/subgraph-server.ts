import 'reflect-metadata';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { ApolloServer, HeaderMap, type ApolloServerOptionsWithGateway } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import type { ExecutionResult, GraphQLSchema } from 'graphql';
import { loadConfig, type Config } from '../subgraphs/kernel/config.ts';
import { RequestContext } from '../subgraphs/kernel/context.ts';
import { maskError, serveBuiltSubgraphs, toGraphQLError } from '../subgraphs/kernel/federation.ts';
import type { SubgraphModule } from '../subgraphs/kernel/module.ts';
import { headerReader } from '../subgraphs/kernel/principal.ts';
import { compiledExecution } from './compiled-execution.ts';
import { moduleNamed, SUBGRAPH_PORTS } from './modules.ts';
import { startPlatform } from './platform.ts';
import { builtBeside, runMain } from './startup.ts';

/**
 * One subgraph as its own process (distributed topology): Apollo Server over the subgraph schema,
 * the principal resolved from the headers the router forwards, and the subgraph's plain HTTP
 * routes (kernel/module.ts, HttpRoutes) on the same port, which the router forwards to.
 * A plain node:http server rather than Apollo's standalone one: only the router calls it (no CORS),
 * and the plain routes need the raw request.
 */
export async function startSubgraphServer(config: Config, module: SubgraphModule, port: number) {
  const platform = await startPlatform(config, [module]);
  const server = new ApolloServer<RequestContext>({
    gateway: compiledGateway(platform.schemas.get(module.name)!),
    introspection: true,
    // Only the router calls a subgraph: no cache hints (the default plugin wraps every field's
    // resolver to compute them, for a Cache-Control header nobody reads), no inline traces, no
    // landing page, nothing reported to Apollo's cloud whatever APOLLO_* variables are around.
    plugins: [
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginSchemaReportingDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
    ],
    // Every error is answered as the embedded gateway words it (kernel maskError): its catalogue
    // code and details, nothing of Apollo's own (no stack trace in development, no
    // INTERNAL_SERVER_ERROR for a domain error), so it reaches the router's clients as it left.
    includeStacktraceInErrorResponses: false,
    formatError: (formatted, error) => {
      const masked = maskError(toGraphQLError(error));
      return { ...formatted, message: masked.message, extensions: { ...masked.extensions } };
    },
  });
  await server.start();
  const http = module.http;
  const httpServer = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (http?.prefixes.some((prefix) => path.startsWith(prefix))) return void (await http.handle(platform.runtime, req, res, path));
      await graphql(req, res);
    } catch (error) {
      console.error(`[subgraph ${module.name}] unhandled`, error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end('{"errors":[{"message":"Internal server error"}]}');
    }
  });
  async function graphql(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"errors":[{"message":"The body is not JSON"}]}');
    }
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    const search = req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method!.toUpperCase(), headers, search, body },
      context: async () => new RequestContext(platform.runtime, headerReader(req.headers)),
    });
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.statusCode = answer.status ?? 200;
    if (answer.body.kind === 'complete') return void res.end(answer.body.string);
    for await (const chunk of answer.body.asyncIterator) res.write(chunk);
    res.end();
  }
  httpServer.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => httpServer.listen(port, process.env.HOST ?? '127.0.0.1', resolve));
  const { address, port: bound } = httpServer.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${bound}/`;
  return {
    url,
    async stop() {
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeIdleConnections();
      });
      await server.stop();
      await platform.stop();
    },
  };
}

/**
 * Apollo Server executing each operation compiled (router/compiled-execution.ts), as the embedded
 * fast path does. Apollo Server takes a custom executor only from a "gateway" (its
 * GatewayInterface): this one serves the subgraph's own schema, which never changes. Apollo still
 * parses and validates each operation, and keeps the document per text.
 */
type Gateway = ApolloServerOptionsWithGateway<RequestContext>['gateway'];

function compiledGateway(schema: GraphQLSchema): Gateway {
  const run = compiledExecution(schema);
  let loaded: Parameters<Gateway['onSchemaLoadOrUpdate']>[0] | undefined;
  return {
    onSchemaLoadOrUpdate(callback) {
      loaded = callback;
      return () => undefined;
    },
    async load() {
      loaded?.({ apiSchema: schema, coreSupergraphSdl: '' });
      return {
        executor: async ({ document, operationName, request, context }) =>
          masked(await run(document, request.variables ?? {}, context, operationName ?? undefined)),
      };
    },
    async stop() {},
  };
}

/**
 * A result's errors as a client may see them (kernel maskError), where the embedded gateway's
 * executor words them too (router/gateway.ts, inProcessExecutor): a unique violation is CONFLICT,
 * text PostgreSQL cannot store BAD_USER_INPUT, anything unexpected INTERNAL. Left to Apollo, an
 * error graphql-jit made of a thrown non-GraphQL error, which has no `extensions`, made Apollo's
 * own formatting throw before `formatError` saw it: an INTERNAL_SERVER_ERROR, with that failure's
 * stack trace in development.
 */
function masked(result: ExecutionResult): ExecutionResult {
  return result.errors?.length ? { ...result, errors: result.errors.map((error) => maskError(toGraphQLError(error))) } : result;
}

// Run as a program (`tsx router/subgraph-server.ts NAME`, `node scripts/launch.mjs subgraph-server NAME`), not imported.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runMain(async () => {
    const name = process.argv[2] ?? process.env.SUBGRAPH;
    if (!name) throw new Error('Usage: npm run start:subgraph -- <name> (or SUBGRAPH=<name>)');
    const module = moduleNamed(name);
    const config = loadConfig();
    if (!config.databaseUrl) throw new Error('A subgraph process needs DATABASE_URL (PostgreSQL): PGlite cannot be shared between processes');
    const port = Number(process.env.PORT ?? SUBGRAPH_PORTS[name]);
    // Built, the subgraph's schema is made from the SDL the build printed for it.
    serveBuiltSubgraphs(builtBeside(import.meta.url, './subgraphs.json'));
    const running = await startSubgraphServer(config, module, port);
    console.log(`Subgraph ${name} on ${running.url}`);
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void running.stop().then(() => process.exit(0)));
  });
}
