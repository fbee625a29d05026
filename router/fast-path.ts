import {
  getNamedType,
  getOperationAST,
  getVariableValues,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  print,
  visit,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import type { QueryPlanner } from '@graphql-hive/router-query-planner';
import type { Pool } from 'undici';
import { RequestContext } from '../subgraphs/kernel/context.ts';
import type { Runtime } from '../subgraphs/kernel/runtime.ts';
import { compiledExecution } from './compiled-execution.ts';
import { forwardedHeaders } from './edge.ts';

/**
 * A step inside the gateway's execution: a query the query planner answers with one fetch from one
 * subgraph, asking it exactly what the client asked, is sent to that subgraph as it is and its data
 * is the result, without the plan's execution and the projection of the answer onto the client's
 * selection (about two thirds of the router's CPU for such a request, measured).
 *
 * It replaces the execute function in `onExecute` (envelop), so every plugin of the gateway sees the
 * operation as it sees any other: the request's parse and validation, the context, every other
 * plugin's `onExecute` (the cost limit among them) and `onExecuteDone`, and the result's processing.
 * Variables are coerced against the API schema first, as the gateway would, and only the ones given
 * are sent (a left-out variable stays left out). An answer with errors or extensions is handed over
 * to the gateway's own execution of the same operation, which words it as for any other request
 * without asking the subgraph again (router/gateway.ts).
 */
export type FastPathTransport = { kind: 'embedded'; schemas: Map<string, GraphQLSchema>; runtime: Runtime } | { kind: 'http'; urls: Map<string, string> };

export interface FastPath {
  plugin: GatewayPlugin;
  /** Operations the fast path answered since the start (the rest ran the plan). */
  served: number;
  /** Off, every operation runs the plan (the differential test compares the two). */
  enabled: boolean;
}

/** A client operation the fast path serves: the subgraph, what it is sent, and the variables it uses. */
interface Route {
  subgraph: string;
  query: string;
  subgraphDocument: DocumentNode;
  operation: OperationDefinitionNode;
  variables: readonly string[];
}

/** What a subgraph answered that the fast path could not take as it is (an error, extensions, another status). */
interface HandedOver {
  target: string;
  response?: { status: number; type: string; body: Buffer };
  result?: ExecutionResult;
}

/** By the gateway context of the operation whose plan runs after the fast path left it; taken once. */
const handedOver = new WeakMap<object, HandedOver>();

/** The answer the fast path got from `target` (a subgraph name in process, its URL over HTTP) for this context's operation. */
export function takeHandedOver(context: unknown, target: string): HandedOver | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const found = handedOver.get(context);
  if (found?.target !== target) return undefined;
  handedOver.delete(context);
  return found;
}

export function createFastPath(supergraphSdl: string, transport: FastPathTransport): FastPath {
  // Decided once per document (Yoga's parser cache and the facades hand the same object for the same text) and operation name.
  const decisions = new WeakMap<DocumentNode, Map<string | undefined, Route | null>>();
  let planner: QueryPlanner | undefined;
  const subgraphs = transport.kind === 'http' ? httpSubgraphs(transport.urls) : embeddedSubgraphs(transport.schemas, transport.runtime);

  async function routeOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): Promise<Route | null> {
    let byName = decisions.get(document);
    const known = byName?.get(operationName);
    if (known !== undefined) return known;
    planner ??= new (await import('@graphql-hive/router-query-planner')).QueryPlanner(supergraphSdl);
    let route: Route | null;
    try {
      route = decide(planner, schema, document, operationName);
    } catch (error) {
      // The plan's execution answers whatever the planner makes of it.
      console.error('[router] fast path', error);
      route = null;
    }
    if (!byName) decisions.set(document, (byName = new Map()));
    byName.set(operationName, route);
    return route;
  }

  const fastPath: FastPath = {
    served: 0,
    enabled: true,
    plugin: {
      async onExecute({ args, executeFn, setExecuteFn }) {
        if (!fastPath.enabled) return;
        const route = await routeOf(args.schema, args.document, args.operationName ?? undefined);
        if (!route) return;
        setExecuteFn(async (execution: ExecutionArgs) => (await serve(route, execution)) ?? executeFn(execution));
      },
    },
  };
  return fastPath;

  async function serve(route: Route, args: ExecutionArgs): Promise<ExecutionResult | null> {
    const coerced = getVariableValues(args.schema, route.operation.variableDefinitions ?? [], (args.variableValues ?? {}) as Record<string, unknown>);
    // A variable that does not coerce is the plan's execution to refuse, in its words.
    if (coerced.errors) return null;
    const values: Record<string, unknown> = {};
    for (const name of route.variables) if (name in coerced.coerced) values[name] = coerced.coerced[name];
    const context = args.contextValue as { request?: Request };
    const headers = context.request ? forwardedHeaders(context.request) : {};
    const result = await subgraphs(route, values, headers, context);
    if (result) fastPath.served++;
    return result;
  }
}

function decide(planner: QueryPlanner, schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): Route | null {
  const operation = getOperationAST(document, operationName);
  if (!operation || operation.operation !== 'query') return null;
  const query = print(document);
  let node;
  try {
    node = planner.plan(query, operationName ?? null, new Set(), 0).node;
  } catch {
    // Introspection, for one: the gateway answers what the planner does not plan.
    return null;
  }
  if (node?.kind !== 'Fetch' || node.requires?.length || node.inputRewrites?.length || node.outputRewrites?.length) return null;
  const subgraphDocument = parse(node.operation, { noLocation: true });
  // The subgraph is asked exactly the client's question (same fields in the same order, aliases,
  // arguments, directives, variables): its answer has the very shape the gateway's projection would
  // give. The planner writes arguments and variables in name order and inlines fragments, which
  // changes nothing; so is the client's operation compared (fragmentsInlined).
  const asked = fragmentsInlined(document, operation, schema);
  if (!asked || canonical(subgraphDocument) !== canonical({ kind: Kind.DOCUMENT, definitions: [asked] })) return null;
  return { subgraph: node.serviceName, query: node.operation, subgraphDocument, operation, variables: node.variableUsages ?? [] };
}

/**
 * The operation with its fragments inlined as the planner writes them, which asks the same: a
 * fragment spread becomes an inline fragment, and an inline fragment on the type it is selected on
 * (without directives) gives way to its fields; a field selected again with the same response key
 * (a leaf, as it was) is dropped, as GraphQL merges it. Undefined when a type is not found. The
 * document's expanded size is bounded before anything runs (router/limits.ts).
 */
function fragmentsInlined(document: DocumentNode, operation: OperationDefinitionNode, schema: GraphQLSchema): OperationDefinitionNode | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const inline = (set: SelectionSetNode, parent: GraphQLNamedType, out: SelectionNode[] = []): SelectionNode[] => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = (selection.alias ?? selection.name).value;
        const leaf = !selection.selectionSet && !selection.directives?.length;
        const same = (s: SelectionNode) =>
          s.kind === Kind.FIELD &&
          (s.alias ?? s.name).value === key &&
          s.name.value === selection.name.value &&
          !s.selectionSet &&
          !s.directives?.length &&
          !s.arguments?.length &&
          !selection.arguments?.length;
        if (leaf && out.some(same)) continue;
        const type = selection.selectionSet && isObjectOrInterface(parent) ? getNamedType(parent.getFields()[selection.name.value]?.type) : undefined;
        if (selection.selectionSet && !type) throw new MissingType();
        out.push(
          selection.selectionSet ? { ...selection, selectionSet: { ...selection.selectionSet, selections: inline(selection.selectionSet, type!) } } : selection,
        );
        continue;
      }
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
      if (!fragment) throw new MissingType();
      const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
      if (!condition) throw new MissingType();
      if (condition === parent && !selection.directives?.length) {
        inline(fragment.selectionSet, parent, out);
        continue;
      }
      out.push({
        kind: Kind.INLINE_FRAGMENT,
        typeCondition: fragment.typeCondition,
        directives: selection.directives,
        selectionSet: { kind: Kind.SELECTION_SET, selections: inline(fragment.selectionSet, condition) },
      });
    }
    return out;
  };
  try {
    const root = schema.getRootType(operation.operation);
    return root ? { ...operation, selectionSet: { ...operation.selectionSet, selections: inline(operation.selectionSet, root) } } : undefined;
  } catch (error) {
    if (error instanceof MissingType) return undefined;
    throw error;
  }
}

class MissingType extends Error {}

function isObjectOrInterface(type: GraphQLNamedType): type is GraphQLObjectType | GraphQLInterfaceType {
  return isObjectType(type) || isInterfaceType(type);
}

/** An operation printed with its name left out and its arguments, variables and input fields in name order. */
function canonical(document: DocumentNode): string {
  const byName = <T extends { name: { value: string } }>(list: readonly T[] | undefined) =>
    list && [...list].sort((a, b) => (a.name.value < b.name.value ? -1 : a.name.value > b.name.value ? 1 : 0));
  return print(
    visit(document, {
      OperationDefinition: (node) => ({
        ...node,
        name: undefined,
        variableDefinitions: node.variableDefinitions && [...node.variableDefinitions].sort((a, b) => (a.variable.name.value < b.variable.name.value ? -1 : 1)),
      }),
      Field: (node) => ({ ...node, arguments: byName(node.arguments) }),
      Directive: (node) => ({ ...node, arguments: byName(node.arguments) }),
      ObjectValue: (node) => ({ ...node, fields: byName(node.fields) }),
    }),
  );
}

/** A route's subgraph data, or null when it answered otherwise (handed over for the plan's execution). */
type Subgraphs = (route: Route, variables: Record<string, unknown>, headers: Record<string, string>, context: object) => Promise<ExecutionResult | null>;

/** The subgraph schema in this process, executed with a context built as router/gateway.ts's inProcessExecutor builds it. */
function embeddedSubgraphs(schemas: Map<string, GraphQLSchema>, runtime: Runtime): Subgraphs {
  const runs = new Map([...schemas].map(([name, schema]) => [name, compiledExecution(schema)]));
  return async (route, variables, headers, context) => {
    const run = runs.get(route.subgraph);
    if (!run) return null;
    const executed = await run(route.subgraphDocument, variables, new RequestContext(runtime, (name) => headers[name]));
    if (!executed.errors?.length && !executed.extensions && executed.data) return { data: executed.data };
    handedOver.set(context, { target: route.subgraph, result: executed });
    return null;
  };
}

const DATA_START = Buffer.from('{"data":{');
const ERRORS_OR_EXTENSIONS = /"(?:errors|extensions)":/;

/**
 * A subgraph's answer of data alone, `{"data":{…}}`, as the result: its data parsed when a plugin
 * reads it, and its text as the answer's own (the result's `stringify`, which Yoga's result
 * processing uses): the same JSON the gateway would write, not parsed and written again.
 */
function answered(body: Buffer): ExecutionResult {
  // Apollo Server ends its JSON with a line feed; the gateway's answer has none.
  const text = body.toString('utf8', 0, body[body.length - 1] === 0x0a ? body.length - 1 : body.length);
  let data: ExecutionResult['data'];
  return {
    get data() {
      return (data ??= JSON.parse(text).data);
    },
    stringify: () => text,
  } as ExecutionResult;
}

/**
 * Subgraph processes over HTTP, through a pool of keep-alive connections each. Identical operations
 * in flight are executed once by the gateway's inbound deduplication, before they get here.
 */
function httpSubgraphs(urls: Map<string, string>): Subgraphs {
  // undici is loaded by the first request: the embedded topology never asks over HTTP.
  type Targets = Map<string, { pool: Pool; path: string }>;
  let targets: Promise<Targets> | undefined;
  const targetsReady = () =>
    (targets ??= import('undici').then(
      ({ Pool }) =>
        new Map(
          [...urls.values()].map((url) => {
            const { origin, pathname } = new URL(url);
            return [url, { pool: new Pool(origin, { connections: 64 }), path: pathname }];
          }),
        ),
    ));
  return async (route, variables, headers, context) => {
    const url = urls.get(route.subgraph);
    if (!url) return null;
    const ready = await targetsReady();
    const response = await post(ready.get(url)!, JSON.stringify({ query: route.query, variables }), headers);
    if (!response) return null;
    const plain =
      response.status === 200 &&
      response.body.subarray(0, DATA_START.length).equals(DATA_START) &&
      !ERRORS_OR_EXTENSIONS.test(response.body.toString('latin1'));
    if (plain) return answered(response.body);
    handedOver.set(context, { target: url, response });
    return null;
  };
}

/**
 * The subgraph's answer, or null when none came (the plan's execution then asks on its own).
 * Through the pool's dispatch handler rather than `request`, whose answer is a Readable stream
 * read chunk by chunk: the chunks are kept as they come.
 */
function post(target: { pool: Pool; path: string }, body: string, headers: Record<string, string>): Promise<HandedOver['response'] | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let status = 0;
    let type = 'application/json';
    try {
      target.pool.dispatch(
        { path: target.path, method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' }, body },
        {
          // Present so that undici takes this for a handler of its current kind (it looks for it).
          onRequestStart() {},
          onResponseStart(_controller, statusCode, responseHeaders) {
            status = statusCode;
            const given = responseHeaders['content-type'];
            if (given) type = Array.isArray(given) ? given[0] : given;
          },
          onResponseData(_controller, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            resolve({ status, type, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) });
          },
          onResponseError() {
            resolve(null);
          },
        },
      );
    } catch {
      resolve(null);
    }
  });
}
