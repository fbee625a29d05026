import {
  execute,
  getOperationAST,
  getVariableValues,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { leavesInputFieldsOut } from './left-out-fields.ts';

/**
 * Executes operations on a subgraph schema compiled by graphql-jit, one function per document:
 * graphql-js's `execute` builds an info object, an arguments object and a path for every field of
 * every item, which with the garbage it leaves was about half the CPU of a list of 20 services.
 * Used by the embedded fast path (router/fast-path.ts) and the subgraph processes
 * (router/subgraph-server.ts). Variables graphql-js refuses, and a document graphql-jit cannot
 * compile, run on graphql-js's `execute`, so their errors stay the ones the gateway and Apollo
 * Server recognise and word (a variable that does not coerce is a 400 naming the field).
 */
export function compiledExecution(schema: GraphQLSchema) {
  const compiled = new WeakMap<DocumentNode, { query: CompiledQuery; operation: OperationDefinitionNode } | null>();
  return (
    document: DocumentNode,
    variableValues: Record<string, unknown>,
    contextValue: unknown,
    operationName?: string,
  ): Promise<ExecutionResult> | ExecutionResult => {
    let entry = compiled.get(document);
    if (entry === undefined) {
      const query = compileQuery(schema, document, operationName);
      const operation = getOperationAST(document, operationName);
      compiled.set(document, (entry = isCompiledQuery(query) && operation ? { query, operation } : null));
    }
    const definitions = entry?.operation.variableDefinitions;
    // graphql-jit would give a left-out input field as null (router/left-out-fields.ts): graphql-js leaves it out.
    if (!entry || (definitions?.length && (leavesInputFieldsOut(document, variableValues) || getVariableValues(schema, definitions, variableValues).errors))) {
      return execute({ schema, document, variableValues, contextValue, operationName });
    }
    return entry.query.query(undefined, contextValue, variableValues);
  };
}
