import { GraphQLError } from 'graphql';
import { isErrorCode, isGraphQLErrorLike } from '../subgraphs/kernel/errors.ts';

/**
 * The gateway's error masking (Yoga's `maskedErrors.maskError`): what a client sees of an error
 * the pipeline or a subgraph raised.
 *
 * - A GraphQL error that wraps nothing but GraphQL errors is the answer as it is, as Yoga's own
 *   masking keeps it; known by its shape rather than its class, so one made by another copy of
 *   graphql (a package a bundle loads from node_modules) keeps its code and message too, instead
 *   of becoming a 500.
 * - Anything else is unexpected: code INTERNAL and the message Yoga was given, never the error
 *   itself. Yoga's own masking adds the error's message and stack (`originalError`) in
 *   development, which the REST and MCP facades then passed on.
 * Yoga logs every error this replaces.
 */
export function maskGatewayError(error: unknown, message: string): Error {
  if (error instanceof GraphQLError && answerable(error)) return error;
  if (isGraphQLErrorLike(error) && answerable(error)) {
    const { originalError: _o, stacktrace: _s, ...extensions } = error.extensions as Record<string, unknown>;
    return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, extensions });
  }
  const located = isGraphQLErrorLike(error) ? error : undefined;
  const http = located?.extensions?.http;
  return new GraphQLError(message, { path: located?.path, extensions: { code: 'INTERNAL', unexpected: true, ...(http ? { http } : {}) } });
}

/** A GraphQL error the client may see as it is: it carries a catalogue code, or wraps nothing but GraphQL errors. */
function answerable(error: GraphQLError): boolean {
  if (isErrorCode(error.extensions?.code)) return true;
  let cause: unknown = error.originalError;
  for (let depth = 0; cause != null && depth < 8; depth++) {
    if (!isGraphQLErrorLike(cause)) return false;
    cause = cause.originalError;
  }
  return cause == null;
}
