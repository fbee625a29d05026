import { GraphQLError, parse, type GraphQLSchema } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import { buildSchema, createResolversMap, type NonEmptyArray } from 'type-graphql';
import { authChecker } from './access.ts';
import type { RequestContext } from './context.ts';
import { AppError, isErrorCode, pgErrorCode, PG_BAD_TEXT, PG_UNIQUE_VIOLATION } from './errors.ts';

const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@tag"])';

export type ReferenceResolver = (reference: any, ctx: RequestContext) => unknown;

/**
 * type-graphql classes → a Federation 2 subgraph schema: build, print with directives, link the
 * federation spec, and rebuild with `buildSubgraphSchema` plus each entity's `__resolveReference`.
 */
export async function buildFederatedSchema(options: {
  resolvers: NonEmptyArray<Function>;
  orphanedTypes?: Function[];
  references?: Record<string, ReferenceResolver>;
}): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: options.resolvers,
    orphanedTypes: options.orphanedTypes,
    authChecker,
    authMode: 'error',
    skipCheck: true,
    validate: false,
  });
  const typeDefs = parse(`${FEDERATION_LINK}\n${printSchemaWithDirectives(schema)}`);
  const resolvers: Record<string, any> = createResolversMap(schema);
  for (const [typeName, resolve] of Object.entries(options.references ?? {})) {
    resolvers[typeName] = {
      ...resolvers[typeName],
      // Entity references skip resolver decorators, so they authenticate here to scope the tenant.
      __resolveReference: async (reference: unknown, ctx: RequestContext) => {
        await ctx.authenticate();
        return resolve(reference, ctx);
      },
    };
  }
  return buildSubgraphSchema({ typeDefs, resolvers });
}

/**
 * What a client may see of an error: catalogue errors and GraphQL's own validation errors as they
 * are, a unique violation as CONFLICT, anything else as INTERNAL without its message (logged here).
 */
export function maskError(error: GraphQLError): GraphQLError {
  const original = error.originalError;
  if (!original || original instanceof AppError) return error;
  if (original instanceof GraphQLError) return isErrorCode(original.extensions?.code) ? withPath(original, error) : error;
  const pgCode = pgErrorCode(original);
  if (pgCode === PG_UNIQUE_VIOLATION) {
    return new GraphQLError('A record with these values already exists', { path: error.path, extensions: { code: 'CONFLICT' } });
  }
  if (pgCode && PG_BAD_TEXT.has(pgCode)) {
    return new GraphQLError('The input contains characters or values that cannot be stored (such as NUL)', { path: error.path, extensions: { code: 'BAD_USER_INPUT' } });
  }
  console.error('[internal error]', original);
  return new GraphQLError('Internal server error', { path: error.path, extensions: { code: 'INTERNAL' } });
}

function withPath(original: GraphQLError, located: GraphQLError): GraphQLError {
  return new GraphQLError(original.message, { path: located.path, extensions: original.extensions });
}
