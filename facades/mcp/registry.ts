import { accessOf, toolsetOf } from '../../subgraphs/kernel/access.ts';
import type { Toolset } from '../../subgraphs/kernel/toolsets.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  Kind,
  TypeInfo,
  parse,
  typeFromAST,
  validate,
  visit,
  visitWithTypeInfo,
  isInputObjectType,
  getNamedType,
  print,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { KEY_SCHEMA } from '../../subgraphs/kernel/idempotency.ts';
import { inputSchema, type JsonSchema } from '../json-schema.ts';
import { withBounds } from './input-schema.ts';
import { selectionSchema } from './selection-schema.ts';

/** The argument every mutating tool takes besides its operation's variables (server.ts strips it). */
export const IDEMPOTENCY_ARG = 'idempotencyKey';

/** MCP tool annotations (hints to clients; the server enforces nothing by them). */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** Callable without a credential (organisation signup). */
  public: boolean;
  /** The toolset of its root field (kernel/toolsets.ts): what narrows a listing and names its scopes. */
  toolset: Toolset;
  readOnly: boolean;
  annotations: ToolAnnotations;
  query: string;
  rootField: string;
  /** The schema published in tools/list: portable (no `null` unions), described, enums and bounds. */
  inputSchema: JsonSchema;
  /**
   * What a call is checked against: the published schema, plus JSON null wherever GraphQL takes it
   * (an optional argument given as null is the same as absent; on update tools it clears a value).
   */
  argumentSchema: JsonSchema;
  /** What `structuredContent` holds: the root field's object, or `{ result }` for anything else. */
  outputSchema: JsonSchema;
  /** The result is wrapped as `{ result: value }` (a list, a scalar, a nullable object). */
  wrapped: boolean;
}

/**
 * Annotations by rule, so a new tool gets them without anyone remembering: a query is read-only
 * (and idempotent); a mutation is destructive when its verb removes or undoes something, and
 * idempotent when repeating it changes nothing more. A tool whose verb misleads says so in a
 * header line of its file: `# hints: destructive`, `# hints: not idempotent`, ….
 */
const DESTRUCTIVE_VERBS = new Set(['cancel', 'delete', 'revoke', 'refund', 'remove', 'void', 'archive', 'clear', 'reset', 'unpublish', 'deactivate']);
const IDEMPOTENT_VERBS = new Set([
  'set',
  'update',
  'replace',
  'reorder',
  'cancel',
  'delete',
  'revoke',
  'remove',
  'archive',
  'clear',
  'unpublish',
  'deactivate',
  'publish',
  'activate',
]);
const HINT_LINE = /^hints:\s*(.+)$/i;
const WORDS: Record<string, string> = { api: 'API', id: 'ID', otp: 'OTP', url: 'URL', sms: 'SMS', faq: 'FAQ', seo: 'SEO' };

/** `list_api_keys` → "List API keys". */
export function titleOf(name: string): string {
  const words = name.split('_').map((w) => WORDS[w] ?? w);
  return [words[0].charAt(0).toUpperCase() + words[0].slice(1), ...words.slice(1)].join(' ');
}

function annotationsOf(name: string, readOnly: boolean, hints: string[]): ToolAnnotations {
  const verb = name.split('_')[0];
  let destructive = !readOnly && DESTRUCTIVE_VERBS.has(verb);
  let idempotent = readOnly || IDEMPOTENT_VERBS.has(verb);
  for (const hint of hints) {
    const h = hint.toLowerCase().replace(/\s+/g, ' ').trim();
    if (h === 'destructive') destructive = true;
    else if (h === 'not destructive') destructive = false;
    else if (h === 'idempotent') idempotent = true;
    else if (h === 'not idempotent') idempotent = false;
    else throw new Error(`MCP tool ${name}: unknown hint "${hint}" (destructive, not destructive, idempotent, not idempotent)`);
  }
  return { title: titleOf(name), readOnlyHint: readOnly, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: false };
}

const TOOLS_DIR = join(import.meta.dirname, 'tools');
const FRAGMENTS_DIR = join(import.meta.dirname, 'fragments');

/**
 * The registry `npm run build` worked out from the supergraph it checked (scripts/snapshot.ts), set
 * by the built entry points: parsing, validating and describing every tool was ~0.2 s of each start.
 * The build counts the tool files among its sources (scripts/build.ts), so a start after a tool
 * changed rebuilds first; it was checked when built, as a broken tool fails the build.
 */
let builtRegistry: string | undefined;

export function serveBuiltToolRegistry(file: string | undefined): void {
  builtRegistry = file;
}

/**
 * Reads every `tools/<name>.graphql`: its leading comment is the description (`# access: public`
 * marks the signup tools), its variables become the tool's JSON Schema, checked against the
 * supergraph so a broken tool fails at start-up rather than when an agent calls it. Shared
 * selections live in `fragments/*.graphql`; each tool gets the ones it spreads.
 */
export function loadTools(schema: GraphQLSchema, dir = TOOLS_DIR): ToolDefinition[] {
  if (builtRegistry && dir === TOOLS_DIR) return JSON.parse(readFileSync(builtRegistry, 'utf8'));
  const fragments = loadFragments();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((file) => toolFrom(basename(file, '.graphql'), withFragments(readFileSync(join(dir, file), 'utf8'), fragments), schema));
}

function loadFragments(): Map<string, FragmentDefinitionNode> {
  const found = new Map<string, FragmentDefinitionNode>();
  for (const file of readdirSync(FRAGMENTS_DIR).filter((f) => f.endsWith('.graphql'))) {
    for (const def of parse(readFileSync(join(FRAGMENTS_DIR, file), 'utf8')).definitions) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) found.set(def.name.value, def);
    }
  }
  return found;
}

/** The tool's source followed by every fragment it spreads, directly or through another fragment. */
function withFragments(source: string, fragments: Map<string, FragmentDefinitionNode>): string {
  const needed = new Set<string>();
  const collect = (node: DocumentNode | FragmentDefinitionNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (!fragment || needed.has(name)) return;
        needed.add(name);
        collect(fragment);
      },
    });
  collect(parse(source));
  return [source, ...[...needed].map((n) => print(fragments.get(n)!))].join('\n');
}

export function toolFrom(name: string, source: string, schema: GraphQLSchema): ToolDefinition {
  const comments = source
    .split('\n')
    .filter((l, i, all) => l.startsWith('#') && all.slice(0, i).every((x) => x.startsWith('#')))
    .map((l) => l.replace(/^#\s?/, '').trim());
  const hints = comments.flatMap((c) => HINT_LINE.exec(c)?.[1].split(',') ?? []);
  const description = comments
    .filter((c) => !HINT_LINE.test(c))
    .join(' ')
    .trim();
  if (!description) throw new Error(`MCP tool ${name}: the file must start with a # description`);
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`MCP tool ${name}: ${errors.map((e) => e.message).join('; ')}`);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation || operation.name?.value !== name) throw new Error(`MCP tool ${name}: the operation must be named ${name}`);
  const rootFields = operation.selectionSet.selections.filter((s) => s.kind === Kind.FIELD);
  if (rootFields.length !== 1 || rootFields[0].kind !== Kind.FIELD) throw new Error(`MCP tool ${name}: select exactly one root field`);

  const descriptions = variableDescriptions(schema, document);
  const published: Record<string, JsonSchema> = {};
  const accepted: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const def of operation.variableDefinitions ?? []) {
    const variable = def.variable.name.value;
    const type = typeFromAST(schema, def.type) as GraphQLInputType | undefined;
    if (!type) throw new Error(`MCP tool ${name}: unknown type of $${variable}`);
    // Optional is said by `required`, not by a `null` branch (which many clients cannot express).
    published[variable] = withBounds(inputSchema(type, descriptions.get(variable)));
    accepted[variable] = withBounds(inputSchema(type, descriptions.get(variable), true));
    if (def.type.kind === Kind.NON_NULL_TYPE && !def.defaultValue) required.push(variable);
  }
  const readOnly = operation.operation === 'query';
  if (!readOnly) {
    if (published[IDEMPOTENCY_ARG]) throw new Error(`MCP tool ${name}: $${IDEMPOTENCY_ARG} is reserved`);
    published[IDEMPOTENCY_ARG] = accepted[IDEMPOTENCY_ARG] = {
      ...KEY_SCHEMA,
      description:
        'Optional unique key (e.g. a UUID) that makes a retry safe: for 24 hours a repeat of this call with the same key and arguments returns the first result without running it again.',
    };
  }
  const object = (properties: Record<string, JsonSchema>): JsonSchema => ({
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  });
  const rootField = rootFields[0] as FieldNode;
  const root = (readOnly ? schema.getQueryType() : schema.getMutationType())!.getFields()[rootField.name.value];
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const value = selectionSchema(schema, root.type, rootField.selectionSet, fragments, `MCP tool ${name}`);
  // structuredContent must be an object: a non-null object is given as it is, anything else as { result }.
  const wrapped = value.type !== 'object';
  const outputSchema = wrapped ? { type: 'object', properties: { result: value }, required: ['result'], additionalProperties: false } : value;
  const annotations = annotationsOf(name, readOnly, hints);
  return {
    name,
    title: annotations.title,
    description,
    // Callable without a key only when its root field needs no caller (the signup pair).
    public: accessOf(rootField.name.value) === 'none',
    toolset: toolsetOf(rootField.name.value),
    readOnly,
    annotations,
    query: source,
    rootField: rootField.name.value,
    inputSchema: object(published),
    argumentSchema: object(accepted),
    outputSchema,
    wrapped,
  };
}

/** A variable's description is that of the argument or input field it is passed to. */
function variableDescriptions(schema: GraphQLSchema, document: ReturnType<typeof parse>): Map<string, string> {
  const found = new Map<string, string>();
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const description = typeInfo.getArgument()?.description;
        if (node.value.kind === Kind.VARIABLE && description) found.set(node.value.name.value, description);
      },
      ObjectField(node) {
        const parent = typeInfo.getParentInputType();
        const named = parent && getNamedType(parent);
        const description = named && isInputObjectType(named) ? named.getFields()[node.name.value]?.description : undefined;
        if (node.value.kind === Kind.VARIABLE && description) found.set(node.value.name.value, description);
      },
    }),
  );
  return found;
}
