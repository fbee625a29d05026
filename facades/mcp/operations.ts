import { GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { VIA_HEADER } from '../../subgraphs/kernel/audit.ts';
import { coercionError, isGraphqlCoercionMessage } from '../../subgraphs/kernel/graphql-words.ts';
import type { ToolDefinition } from './registry.ts';

/** The request headers a tool's operation runs with: what a subgraph may see of the MCP request. */
export interface OperationHeaders {
  authorization?: string;
  /** The X-Company-Id the client sent (naming another company than the credential's is refused). */
  companyId?: string;
  /** The MCP request's Host, which the subgraphs read as x-forwarded-host. */
  host?: string;
}

export interface OperationAnswer {
  result: ExecutionResult;
  /** What Yoga would answer over HTTP for this result (the fallback status of an error without a code). */
  status: number;
}

/** A tool's document as the gateway parsed and validated it, for one schema, or why it refused it. */
interface Prepared {
  schema: GraphQLSchema;
  document?: DocumentNode;
  errors?: readonly GraphQLError[];
}

/**
 * Runs tool operations in-process through the gateway's own enveloped pipeline, as the REST facade
 * runs its routes, instead of an HTTP round trip through `gateway.fetch` (a Request, JSON out and
 * back in, Yoga's request parsing) per call.
 *
 * The pipeline's hooks still apply where they ran before:
 * - parse and validate (the token, depth, alias and directive limits, GraphQL's rules) run through
 *   the gateway's `parse` and `validate` once per tool and schema: a tool's document is fixed, and
 *   Yoga caches both per document anyway;
 * - execute (the whole-operation cost estimate with this call's variables, the gateway's demand
 *   control, error masking, the plan and the subgraphs) runs per call;
 * - what is left of the HTTP layer is done here: GraphQL's coercion messages in our words (as
 *   router/edge.ts's `useErrorAnswers` does) and the HTTP status Yoga would have given.
 * The request handed to the pipeline carries the headers the facade used to send (Authorization,
 * X-Company-Id, the Host as x-forwarded-host, and `x-via: mcp <tool>` for the audit log), so the
 * subgraphs resolve the same principal and the audit log names the tool.
 */
export function createOperationRunner(gateway: GatewayRuntime) {
  const prepared = new Map<string, Prepared>();

  return async function runOperation(tool: ToolDefinition, variables: Record<string, unknown>, given: OperationHeaders): Promise<OperationAnswer> {
    const headers: Record<string, string> = { [VIA_HEADER]: `mcp ${tool.name}` };
    if (given.authorization) headers.authorization = given.authorization;
    if (given.host) headers['x-forwarded-host'] = given.host;
    if (given.companyId) headers['x-company-id'] = given.companyId;
    const params = { query: tool.query, variables, operationName: tool.name };
    try {
      let entry = prepared.get(tool.name);
      const request = new Request('http://router.internal/graphql', { method: 'POST', headers });
      if (!entry) prepared.set(tool.name, (entry = prepare(gateway.getEnveloped({ request, params }), tool.query)));
      // Yoga answers a document it refuses with 400.
      if (entry.errors) return answer({ errors: entry.errors }, 400);
      const enveloped = gateway.getEnveloped({ request, params });
      if (entry.schema !== enveloped.schema) {
        prepared.set(tool.name, (entry = prepare(enveloped, tool.query)));
        if (entry.errors) return answer({ errors: entry.errors }, 400);
      }
      const result = (await enveloped.execute({
        schema: enveloped.schema,
        document: entry.document!,
        variableValues: variables,
        operationName: tool.name,
        contextValue: await enveloped.contextFactory(),
      })) as ExecutionResult;
      return answer(result);
    } catch (error) {
      if (error instanceof GraphQLError) return answer({ errors: [error] });
      console.error(`[mcp] ${tool.name}`, error);
      return answer({ errors: [new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL' } })] }, 500);
    }
  };
}

type Enveloped = ReturnType<GatewayRuntime['getEnveloped']>;

function prepare(enveloped: Enveloped, source: string): Prepared {
  const schema = enveloped.schema as GraphQLSchema;
  let document: DocumentNode;
  try {
    document = enveloped.parse(source);
  } catch (error) {
    if (error instanceof GraphQLError) return { schema, errors: [error] };
    throw error;
  }
  const errors = enveloped.validate(schema, document);
  return errors.length ? { schema, errors } : { schema, document };
}

/** The result with coercion messages in our words, and the status Yoga gives it (graphql-yoga's getResponseInitByRespectingErrors). */
function answer(result: ExecutionResult, fallback?: number): OperationAnswer {
  if (!result.errors?.length) return { result, status: 200 };
  let status = Number((result.extensions?.http as { status?: number } | undefined)?.status) || 0;
  for (const error of result.errors) {
    const http = Number((error.extensions?.http as { status?: number } | undefined)?.status);
    if (http > status) status = http;
  }
  return { result: { ...result, errors: result.errors.map(inOurWords) }, status: status || fallback || 200 };
}

/** As router/edge.ts words a GraphQL error for every client: a coercion message names the field, not the value. */
function inOurWords(error: GraphQLError): GraphQLError {
  const code = error.extensions?.code;
  if ((code !== undefined && code !== 'BAD_USER_INPUT') || !isGraphqlCoercionMessage(error.message)) return error;
  const worded = coercionError(error.message);
  return new GraphQLError(worded.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: 'BAD_USER_INPUT', ...(worded.field ? { field: worded.field } : {}) },
  });
}
