import 'reflect-metadata';
import { pathToFileURL } from 'node:url';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginSchemaReportingDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { GraphQLError } from 'graphql';
import { loadConfig, type Config } from '../subgraphs/kernel/config.ts';
import { RequestContext } from '../subgraphs/kernel/context.ts';
import { maskError } from '../subgraphs/kernel/federation.ts';
import type { SubgraphModule } from '../subgraphs/kernel/module.ts';
import { headerReader } from '../subgraphs/kernel/principal.ts';
import { moduleNamed, SUBGRAPH_PORTS } from './modules.ts';
import { startPlatform } from './platform.ts';

/**
 * One subgraph as its own process (distributed topology): Apollo Server over the subgraph schema,
 * the principal resolved from the headers the router forwards.
 */
export async function startSubgraphServer(config: Config, module: SubgraphModule, port: number) {
  const platform = await startPlatform(config, [module]);
  const server = new ApolloServer<RequestContext>({
    schema: platform.schemas.get(module.name)!,
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
    formatError: (formatted, error) => {
      const masked = error instanceof GraphQLError ? maskError(error) : null;
      return masked ? { ...formatted, message: masked.message, extensions: { ...masked.extensions } } : formatted;
    },
  });
  const { url } = await startStandaloneServer(server, {
    listen: { port, host: process.env.HOST ?? '127.0.0.1' },
    context: async ({ req }) => new RequestContext(platform.runtime, headerReader(req.headers)),
  });
  return {
    url,
    async stop() {
      await server.stop();
      await platform.stop();
    },
  };
}

// Run as a program (`tsx router/subgraph-server.ts NAME`, `node dist/subgraph-server.js NAME`), not imported.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const name = process.argv[2] ?? process.env.SUBGRAPH;
  if (!name) throw new Error('Usage: npm run start:subgraph -- <name> (or SUBGRAPH=<name>)');
  const module = moduleNamed(name);
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error('A subgraph process needs DATABASE_URL (PostgreSQL): PGlite cannot be shared between processes');
  const port = Number(process.env.PORT ?? SUBGRAPH_PORTS[name]);
  const running = await startSubgraphServer(config, module, port);
  console.log(`Subgraph ${name} on ${running.url}`);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void running.stop().then(() => process.exit(0)));
}

