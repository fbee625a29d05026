import type { IncomingMessage } from 'node:http';
import {
  GraphQLBoolean,
  isEqualType,
  isInputObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type GraphQLSchema,
  type TypeNode,
  type VariableDefinitionNode,
} from 'graphql';
import { buildOperationNodeForField } from '@graphql-tools/utils';

/** What SOFA builds a query route's operation from (`createSofa`'s result). */
export interface SofaModels {
  models: string[];
  ignore: string[];
  depthLimit: number;
}

/** A GET route's operation, as SOFA runs it. */
export interface ReadOperation {
  document: DocumentNode;
  operationName: string | undefined;
  variables: readonly VariableDefinitionNode[];
  /** The root field, whose value is the route's data. */
  fieldName: string;
}

/**
 * The operation SOFA's router generates for a query route (sofa-api `createQueryRoute`: the root
 * field with its selection built by graphql-tools to `depthLimit`, models nested as `{ id }`),
 * built the same way from the same schema, so both paths ask the subgraph the same question.
 */
export function readOperation(schema: GraphQLSchema, sofa: SofaModels, fieldName: string): ReadOperation {
  const node = buildOperationNodeForField({
    kind: 'query' as never,
    schema,
    field: fieldName,
    models: sofa.models,
    ignore: sofa.ignore,
    circularReferenceDepth: sofa.depthLimit,
  });
  return { document: { kind: Kind.DOCUMENT, definitions: [node] }, operationName: node.name?.value, variables: node.variableDefinitions ?? [], fieldName };
}

/**
 * The plain path of a GET route (facade.ts): the checked request's path parameters and query values
 * become the operation's variables here, read as SOFA reads them (sofa-api `useHandler`,
 * `pickParam`, `parseVariable`: the text of each, through its scalar's `serialize`), and its result
 * is written as the envelope, without SOFA's router and the web Request and Response objects
 * around it. It is taken only where SOFA would read the very same text; otherwise undefined, and
 * the request goes to SOFA, which answers it as before:
 *
 * - no request body (SOFA reads a variable missing from the URL from a GET's body too);
 * - a host header (SOFA's request URL is built from it), no `%` in the path (SOFA's path
 *   parameters are what its router matched) and no trailing slash (its router matches none);
 * - no empty query value (SOFA's `qs` reading of `?search=` gives no variable at all), no list
 *   longer than 20 (`qs` turns a longer one into an object), no value that did not decode as
 *   UTF-8 (`qs` keeps its percent signs, the URL parser replaces it);
 * - no variable of an input object type (SOFA parses it from JSON text), none its scalar refuses.
 */
export function plainVariables(
  req: IncomingMessage & { body?: Buffer },
  path: string,
  operation: ReadOperation,
  pathParams: Record<string, string>,
  search: URLSearchParams,
  schema: GraphQLSchema,
): Record<string, unknown> | undefined {
  if (req.body?.length || req.headers['content-length'] || req.headers['transfer-encoding'] || !req.headers.host || path.includes('%') || path.endsWith('/'))
    return undefined;
  const variables: Record<string, unknown> = {};
  for (const definition of operation.variables) {
    const name = definition.variable.name.value;
    let value: string | string[] | undefined = pathParams[name];
    if (value === undefined) {
      const given = search.getAll(name);
      if (!given.length) continue;
      if (given.length > 20 || given.some((v) => v === '' || v.includes('\uFFFD'))) return undefined;
      value = given.length === 1 ? given[0] : given;
    }
    let resolved: unknown;
    try {
      resolved = resolve(value, definition.type, schema);
    } catch {
      return undefined; // SOFA words a value its scalar refuses.
    }
    if (resolved === UNSUPPORTED) return undefined;
    variables[name] = resolved;
  }
  return variables;
}

const UNSUPPORTED = Symbol('unsupported');

/** Text as SOFA's `parseVariable` turns it into a variable: a scalar through its `serialize`, one value into a list. */
function resolve(value: string | string[], type: TypeNode, schema: GraphQLSchema): unknown {
  if (type.kind === Kind.NON_NULL_TYPE) return resolve(value, type.type, schema);
  if (type.kind === Kind.LIST_TYPE) {
    const items = (Array.isArray(value) ? value : [value]).map((v) => resolve(v, type.type, schema));
    return items.includes(UNSUPPORTED) ? UNSUPPORTED : items;
  }
  const named = schema.getType(type.name.value);
  if (!named || isInputObjectType(named)) return UNSUPPORTED;
  if (isScalarType(named)) return named.serialize(isEqualType(GraphQLBoolean, named) ? value === 'true' : value);
  return value;
}
