import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import {
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
  validate,
  valueFromASTUntyped,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import type { QueryLimits } from '../subgraphs/kernel/config.ts';
import { JOIN_GRAPH } from './compose.ts';
import { DEFAULT_LIMIT } from '../subgraphs/kernel/pagination.ts';

/**
 * What one GraphQL operation may ask of the router, checked before anything runs:
 *
 * - tokens and nesting, in one pass of GraphQL's lexer before the parser: a document over the token
 *   limit, or whose brackets nest deeper than MAX_NESTING (a list literal nested a thousand deep
 *   would exhaust the parser's stack), is never parsed;
 * - selections: the operation's size with every fragment spread expanded, worked out once per
 *   fragment, so a document whose fragments each spread the next twice (2^30 selections in 1.2 KB)
 *   or spread themselves is refused before anything whose cost grows with that size runs
 *   (GraphQL's validation rules, the depth rule, the cost, the query planner, the fast path);
 * - depth, aliases, directives (graphql-armor's rules): per document, before GraphQL's own
 *   validation;
 * - cost: the operation's estimated cost from the supergraph's `@cost` and `@listSize`
 *   (IBM cost spec, as the gateway's demand control counts it) over the whole operation, with its
 *   variables, before the first subgraph is called. It runs where execution starts, not in
 *   validation (Yoga caches validation per document; a `$limit` varies per request), so GraphQL,
 *   the REST routes (SOFA executes without validating) and the MCP tools are all held to it.
 *   The gateway's own demand control is not used: it recounts every subgraph request of the plan
 *   as it runs (5–6% of the router's CPU per request, measured) to enforce the same budget again.
 *
 * A refusal is `400` with the code `QUERY_TOO_COMPLEX` and `{ limit, max, found }` beside it.
 */
export type LimitName = 'tokens' | 'nesting' | 'selections' | 'depth' | 'aliases' | 'directives' | 'cost';

export const LIMIT_CODE = 'QUERY_TOO_COMPLEX';

export function limitError(limit: LimitName, max: number, found?: number): GraphQLError {
  const n = found === undefined ? '' : ` ${found}`;
  const message =
    limit === 'tokens'
      ? `The document has more than ${max} tokens, the limit; send a smaller query`
      : limit === 'nesting'
        ? `The document nests brackets deeper than the limit of ${max}`
        : limit === 'selections'
          ? `The operation has more than ${max} selections with its fragments expanded, the limit; spread fewer fragments`
          : limit === 'cost'
            ? `Query cost${n} exceeds the limit of ${max}; ask for fewer or smaller lists (limit) or less nesting`
            : limit === 'depth'
              ? `Query depth${n} exceeds the limit of ${max}`
              : found === undefined
                ? `Query uses more ${limit} than the limit of ${max}`
                : `Query uses ${found} ${limit}, over the limit of ${max}`;
  return new GraphQLError(message, { extensions: { code: LIMIT_CODE, limit, max, ...(found === undefined ? {} : { found }), http: { status: 400 } } });
}

/** How deep brackets (`{`, `[`, `(`) may nest in a document: far beyond any real operation, far below the parser's stack. */
export const MAX_NESTING = 64;
/** Selections of one operation with its fragments expanded (the largest tool's is a few hundred). */
export const MAX_SELECTIONS = 5000;

/**
 * A document parsed within the limits that hold before anything else: tokens and nesting (one pass
 * of the lexer, which stops at the first token over), then the parse, then the operation's size
 * with its fragments expanded. Throws the limit's error.
 */
export function parseWithinLimits(source: string | Source, options: { maxTokens: number }): DocumentNode {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let tokens = 0;
  let depth = 0;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
    if (++tokens > options.maxTokens) throw limitError('tokens', options.maxTokens);
    if (token.kind === TokenKind.BRACE_L || token.kind === TokenKind.BRACKET_L || token.kind === TokenKind.PAREN_L) {
      if (++depth > MAX_NESTING) throw limitError('nesting', MAX_NESTING);
    } else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.BRACKET_R || token.kind === TokenKind.PAREN_R) depth--;
  }
  const document = parse(source, { maxTokens: options.maxTokens });
  checkExpandedSize(document);
  return document;
}

/**
 * Every operation's selections counted with fragment spreads expanded, each fragment counted once
 * (so linear in the document); over MAX_SELECTIONS, or a fragment that spreads itself, is refused.
 */
function checkExpandedSize(document: DocumentNode): void {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const sizes = new Map<string, number>();
  const expanding = new Set<string>();
  const refuse = (found?: number) => limitError('selections', MAX_SELECTIONS, found);
  const sizeOf = (set: SelectionSetNode): number => {
    let size = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) size += 1 + (selection.selectionSet ? sizeOf(selection.selectionSet) : 0);
      else if (selection.kind === Kind.INLINE_FRAGMENT) size += sizeOf(selection.selectionSet);
      else size += fragmentSize(selection.name.value);
      // Saturates: the count only has to pass the limit.
      if (size > MAX_SELECTIONS) return MAX_SELECTIONS + 1;
    }
    return size;
  };
  const fragmentSize = (name: string): number => {
    const known = sizes.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    // An unknown fragment is validation's to name.
    if (!fragment) return 0;
    if (expanding.has(name)) {
      const error = refuse();
      throw new GraphQLError(`Fragment "${name}" spreads itself: its selections never end`, { extensions: error.extensions });
    }
    expanding.add(name);
    const size = sizeOf(fragment.selectionSet);
    expanding.delete(name);
    sizes.set(name, size);
    return size;
  };
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION && d.kind !== Kind.FRAGMENT_DEFINITION) continue;
    const size = d.kind === Kind.OPERATION_DEFINITION ? sizeOf(d.selectionSet) : fragmentSize(d.name.value);
    if (size > MAX_SELECTIONS) throw refuse();
  }
}

/**
 * Tokens, nesting and expanded size checked as the gateway parses a document (Yoga caches the parse
 * per text, so a document is checked once), before any validation rule.
 */
function useDocumentLimits(limits: QueryLimits): GatewayPlugin {
  const parseFn = (source: string | Source) => parseWithinLimits(source, { maxTokens: limits.tokens });
  return {
    onParse({ setParseFn }) {
      setParseFn(parseFn);
    },
  };
}

/** armor's own error says `found N`; ours names the limit and the number. */
const rejectWith = (limit: Exclude<LimitName, 'tokens' | 'cost'>, max: number) => (context: ValidationContext | null, error: GraphQLError) => {
  const found = Number(/found (\d+)/.exec(error.message)?.[1]);
  context?.reportError(limitError(limit, max, Number.isFinite(found) ? found : undefined));
};

/** The router's plugins: the structural limits and the whole-operation cost. */
export function limitPlugins(supergraphSdl: string, limits: QueryLimits): GatewayPlugin[] {
  const costs = costAnnotations(supergraphSdl);
  return [useDocumentLimits(limits), useStructureLimits(limits), useOperationCost(costs, limits), useLimitErrors()];
}

/**
 * Depth, aliases and directives (graphql-armor's rules), checked before GraphQL's own validation:
 * a document over a limit is answered with that alone, without running every rule over it (a
 * hundred aliases of one field cost the overlapping-fields rule ten thousand comparisons).
 */
function useStructureLimits(limits: QueryLimits): GatewayPlugin {
  const common = { exposeLimits: true, propagateOnRejection: false } as const;
  const rules = [
    maxDepthRule({ n: limits.depth, flattenFragments: true, ignoreIntrospection: true, ...common, onReject: [rejectWith('depth', limits.depth)] }),
    maxAliasesRule({ n: limits.aliases, ...common, onReject: [rejectWith('aliases', limits.aliases)] }),
    maxDirectivesRule({ n: limits.directives, ...common, onReject: [rejectWith('directives', limits.directives)] }),
  ];
  // Yoga's parser cache hands the same document object for the same text: check it once.
  const checked = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  return {
    onValidate({ params, setResult }) {
      let refused = checked.get(params.documentAST);
      if (!refused) checked.set(params.documentAST, (refused = validate(params.schema, params.documentAST, rules)));
      if (refused.length) setResult(refused);
    },
  };
}

/** Costs kept per document (one per distinct operation name and variable values). */
const MAX_COSTS = 200;

/**
 * Estimated cost at the start of execution, where the variables (a list's `limit`) are known; kept
 * per document (Yoga's parser cache and the facades hand the same object for the same text) by
 * operation name and variables, as the same requests come again and again.
 */
function useOperationCost(costs: CostAnnotations, limits: QueryLimits): GatewayPlugin {
  const known = new WeakMap<DocumentNode, Map<string, number>>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      const key = `${args.operationName ?? ''}\n${JSON.stringify(variables)}`;
      let byKey = known.get(args.document);
      let cost = byKey?.get(key);
      if (cost === undefined) {
        cost = operationCost(args.schema, args.document, variables, costs, limits, args.operationName ?? undefined);
        if (!byKey) known.set(args.document, (byKey = new Map()));
        if (byKey.size >= MAX_COSTS) byKey.clear();
        byKey.set(key, cost);
      }
      if (cost > limits.cost) setResultAndStopExecution({ errors: [limitError('cost', limits.cost, cost)] });
    },
  };
}

/**
 * A refusal is 400 whatever the client accepts: Yoga marks parse and validation errors as the
 * GraphQL-over-HTTP spec's (`http.spec`), which under `application/json` it answers with 200.
 */
function useLimitErrors(): GatewayPlugin {
  return {
    onResultProcess({ result }) {
      for (const r of Array.isArray(result) ? result : [result]) {
        for (const error of (r as { errors?: readonly GraphQLError[] } | undefined)?.errors ?? []) {
          const http = error.extensions?.code === LIMIT_CODE ? (error.extensions.http as { spec?: boolean } | undefined) : undefined;
          if (http) http.spec = false;
        }
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Cost: the IBM cost spec (@cost, @listSize) as @graphql-hive/gateway-runtime's demand control
// counts a subgraph request, applied to the whole client operation:
// - a field returning an object costs 1 (or its type's @cost), a scalar 0, plus its own @cost;
// - a list multiplies its own cost and everything below it by its size: `@listSize(assumedSize)`,
//   the value of a slicing argument (`limit`; omitted → the default page size; at most the largest
//   page), a parent's `sizedFields`, or else `limits.listSize`;
// - a mutation adds 10.

export interface CostAnnotations {
  /** `Type.field` → @cost weight. */
  fields: Map<string, number>;
  /** `Type` → @cost weight (replaces the 1 of an object). */
  types: Map<string, number>;
  listSizes: Map<string, ListSize>;
}

interface ListSize {
  assumedSize?: number;
  slicingArguments?: string[];
  sizedFields?: string[];
}

const COST_SPEC = 'https://specs.apollo.dev/cost/';

let annotated: { sdl: string; costs: CostAnnotations } | undefined;

/**
 * The `@cost` and `@listSize` of a supergraph, under the names its `@link` to the cost spec gives
 * them; the last supergraph's are kept (the gateway's limits and the fast path read the same one).
 * Those the build read of the same supergraph when there are (serveBuiltCostAnnotations).
 */
export function costAnnotations(supergraphSdl: string): CostAnnotations {
  if (annotated?.sdl !== supergraphSdl) {
    const costs = builtCosts?.supergraph === supergraphDigest(supergraphSdl) ? builtCosts.costs : readCostAnnotations(supergraphSdl);
    annotated = { sdl: supergraphSdl, costs };
  }
  return annotated.costs;
}

/**
 * The annotations `npm run build` read of the supergraph it checked (scripts/snapshot.ts,
 * dist/cost-annotations.json), set by the built entry points; unset from source. Reading them from
 * the supergraph's text is a parse of its 135 KB, ~20 ms of a start (the gateway parses it again
 * for itself). They are taken only for that very supergraph, whatever URLs its subgraphs are at.
 */
let builtCosts: { supergraph: string; costs: CostAnnotations } | undefined;

export function serveBuiltCostAnnotations(file: string | undefined): void {
  if (file === undefined) return void (builtCosts = undefined);
  const { supergraph, fields, types, listSizes } = JSON.parse(readFileSync(file, 'utf8'));
  builtCosts = { supergraph, costs: { fields: new Map(fields), types: new Map(types), listSizes: new Map(listSizes) } };
}

/** What dist/cost-annotations.json holds for a supergraph (scripts/snapshot.ts). */
export function costAnnotationsFile(supergraphSdl: string): string {
  const { fields, types, listSizes } = readCostAnnotations(supergraphSdl);
  return JSON.stringify({ supergraph: supergraphDigest(supergraphSdl), fields: [...fields], types: [...types], listSizes: [...listSizes] });
}

/** A supergraph's digest without its subgraphs' URLs, which are set at start (router/compose.ts) and carry no cost. */
function supergraphDigest(supergraphSdl: string): string {
  return createHash('sha256')
    .update(supergraphSdl.replace(JOIN_GRAPH, (_, name: string) => `@join__graph(name: "${name}", url: "")`))
    .digest('hex');
}

function readCostAnnotations(supergraphSdl: string): CostAnnotations {
  const document = parse(supergraphSdl, { noLocation: true });
  const found: CostAnnotations = { fields: new Map(), types: new Map(), listSizes: new Map() };
  const names = costDirectiveNames(document);
  if (!names) return found;
  const args = (directive: DirectiveNode) => Object.fromEntries((directive.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value)]));
  for (const def of document.definitions) {
    if (!('name' in def) || !def.name || !('directives' in def)) continue;
    const typeName = def.name.value;
    for (const d of def.directives ?? []) if (d.name.value === names.cost) found.types.set(typeName, Number(args(d).weight) || 0);
    if (!('fields' in def)) continue;
    for (const field of def.fields ?? []) {
      const key = `${typeName}.${field.name.value}`;
      for (const d of field.directives ?? []) {
        if (d.name.value === names.cost) found.fields.set(key, Number(args(d).weight) || 0);
        if (d.name.value === names.listSize) found.listSizes.set(key, args(d) as ListSize);
      }
    }
  }
  return found;
}

function costDirectiveNames(document: DocumentNode): { cost: string; listSize: string } | undefined {
  for (const def of document.definitions) {
    if (def.kind !== Kind.SCHEMA_DEFINITION && def.kind !== Kind.SCHEMA_EXTENSION) continue;
    for (const link of def.directives ?? []) {
      if (link.name.value !== 'link') continue;
      const {
        url,
        as,
        import: imports,
      } = Object.fromEntries((link.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value)])) as {
        url?: string;
        as?: string;
        import?: unknown[];
      };
      if (!url?.startsWith(COST_SPEC)) continue;
      const prefix = as ?? 'cost';
      const imported = (name: string) => {
        for (const i of imports ?? []) {
          if (i === `@${name}`) return name;
          if (typeof i === 'object' && i && (i as { name?: string }).name === `@${name}`) return String((i as { as?: string }).as ?? `@${name}`).slice(1);
        }
        return undefined;
      };
      return { cost: imported('cost') ?? prefix, listSize: imported('listSize') ?? `${prefix}__listSize` };
    }
  }
  return undefined;
}

/** The estimated cost of the operation that would run (every operation's highest when none is named). */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  costs: CostAnnotations,
  limits: Pick<QueryLimits, 'listSize'>,
  operationName?: string,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: OperationDefinitionNode[] = [];
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    if (def.kind === Kind.OPERATION_DEFINITION && (!operationName || def.name?.value === operationName)) operations.push(def);
  }
  let highest = 0;
  for (const operation of operations) {
    const root = schema.getRootType(operation.operation);
    if (!root) continue;
    const defaults = new Map(
      (operation.variableDefinitions ?? []).filter((v) => v.defaultValue).map((v) => [v.variable.name.value, valueFromASTUntyped(v.defaultValue!)]),
    );
    const counter = new CostCounter(schema, costs, limits.listSize, fragments, (name) => (name in variables ? variables[name] : defaults.get(name)));
    const cost = (operation.operation === 'mutation' ? 10 : 0) + counter.selections(operation.selectionSet, root, 1, undefined, new Set());
    highest = Math.max(highest, cost);
  }
  return Number.isFinite(highest) ? Math.min(Math.round(highest), Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER;
}

class CostCounter {
  constructor(
    private schema: GraphQLSchema,
    private costs: CostAnnotations,
    private listSize: number,
    private fragments: Map<string, FragmentDefinitionNode>,
    private variable: (name: string) => unknown,
  ) {}

  /** The cost of a selection set on `parent`, `multiplier` times; `sized` gives fields their size from the parent's slicing argument. */
  selections(set: SelectionSetNode, parent: GraphQLNamedType, multiplier: number, sized: Map<string, number> | undefined, fragmentPath: Set<string>): number {
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        cost += this.field(selection, parent, multiplier, sized, fragmentPath);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : parent;
        if (type) cost += this.selections(selection.selectionSet, type, multiplier, sized, fragmentPath);
      } else {
        const name = selection.name.value;
        const fragment = this.fragments.get(name);
        // A fragment cycle is validation's to report; it adds nothing here.
        if (!fragment || fragmentPath.has(name)) continue;
        const type = this.schema.getType(fragment.typeCondition.name.value);
        if (!type) continue;
        fragmentPath.add(name);
        cost += this.selections(fragment.selectionSet, type, multiplier, sized, fragmentPath);
        fragmentPath.delete(name);
      }
    }
    return cost;
  }

  private field(node: FieldNode, parent: GraphQLNamedType, multiplier: number, sized: Map<string, number> | undefined, fragmentPath: Set<string>): number {
    if (node.name.value.startsWith('__') || !(isObjectType(parent) || isInterfaceType(parent))) return 0;
    const field = parent.getFields()[node.name.value];
    if (!field) return 0;
    const key = `${parent.name}.${field.name}`;
    const type = getNamedType(field.type);
    let factor = 1;
    let childSized: Map<string, number> | undefined;
    const declared = this.costs.listSizes.get(key);
    if (sized?.has(field.name)) {
      factor = sized.get(field.name)!;
    } else if (declared?.slicingArguments?.length) {
      const size = this.slice(field, node, declared.slicingArguments);
      if (declared.sizedFields?.length) childSized = new Map(declared.sizedFields.map((f) => [f, size]));
      else factor = size;
    } else if (declared?.assumedSize !== undefined) {
      factor = Number(declared.assumedSize);
    } else {
      factor = this.listSize ** listDepth(field.type);
    }
    const own = (this.costs.fields.get(key) ?? 0) + (this.costs.types.get(type.name) ?? (isCompositeType(type) ? 1 : 0));
    const times = multiplier * factor;
    let cost = times * own;
    if (node.selectionSet && isCompositeType(type)) cost += this.selections(node.selectionSet, type, times, childSized, fragmentPath);
    return cost;
  }

  /**
   * A slicing argument's value: as given (a literal or a variable), else its default, else a
   * default page. As given even past the largest page a list serves: `limit: 1000000` is refused
   * here as too costly, while an over-large but cheap page reaches the list, which names `limit`.
   */
  private slice(field: GraphQLField<unknown, unknown>, node: FieldNode, names: string[]): number {
    let size: number | undefined;
    for (const name of names) {
      const arg = node.arguments?.find((a) => a.name.value === name);
      const value = arg
        ? arg.value.kind === Kind.VARIABLE
          ? this.variable(arg.value.name.value)
          : valueFromASTUntyped(arg.value)
        : field.args.find((a) => a.name === name)?.defaultValue;
      const n = Number(value);
      if (value !== null && value !== undefined && Number.isFinite(n) && n > 0) size = Math.max(size ?? 0, n);
    }
    return size ?? DEFAULT_LIMIT;
  }
}

function listDepth(type: GraphQLOutputType): number {
  let depth = 0;
  let t: GraphQLOutputType = type;
  for (;;) {
    if (isNonNullType(t)) t = t.ofType;
    else if (isListType(t)) {
      depth++;
      t = t.ofType;
    } else return depth;
  }
}
