import httpTransport from '@graphql-mesh/transport-http';

/**
 * The gateway's HTTP transport to subgraph processes, imported here rather than found by name.
 * Left to itself the gateway runtime loads it with `import('@graphql-mesh/transport-http')` the
 * first time it reaches a subgraph (@graphql-mesh/fusion-runtime, defaultTransportsGetter): a name
 * made at run time, which a bundle (scripts/build.ts) cannot follow, so the built router loaded the
 * transport and its graphql from node_modules beside the copy of graphql in the bundle. The errors
 * it made of a subgraph's answer were then of a class the gateway did not know as GraphQL errors:
 * masked as unexpected, each domain error (NOT_FOUND, BAD_USER_INPUT) became a 500 carrying its
 * stack in development. Given here, the transport is bundled with the router: one graphql.
 * For createGatewayRuntime's `transports` in the distributed topology (router/gateway.ts).
 */
export const httpTransports = { http: httpTransport };
