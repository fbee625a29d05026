import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';

/**
 * The comparison server for `npm run bench`: `@apollo/gateway` in Apollo Server over the same
 * supergraph (SUPERGRAPH_FILE) and the same subgraph processes as our router, forwarding the
 * headers a subgraph resolves the principal from. Its own process, so its CPU can be measured.
 */
interface Context {
  headers: IncomingHttpHeaders;
}

const FORWARDED = ['authorization', 'x-company-id', 'x-request-id'];

const gateway = new ApolloGateway({
  supergraphSdl: readFileSync(process.env.SUPERGRAPH_FILE!, 'utf8'),
  buildService: ({ url }) =>
    new RemoteGraphQLDataSource<Context>({
      url,
      willSendRequest({ request, context }) {
        for (const name of FORWARDED) {
          const value = context.headers?.[name];
          if (typeof value === 'string') request.http!.headers.set(name, value);
        }
        if (context.headers?.host) request.http!.headers.set('x-forwarded-host', context.headers.host);
      },
    }),
});

const server = new ApolloServer<Context>({ gateway });
const { url } = await startStandaloneServer(server, {
  listen: { port: Number(process.env.PORT ?? 4100), host: '127.0.0.1' },
  context: async ({ req }) => ({ headers: req.headers }),
});
console.log(`@apollo/gateway on ${url}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void server.stop().then(() => process.exit(0)));
