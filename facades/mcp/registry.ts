import { accessOf } from '../../subgraphs/kernel/access.ts';
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
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { KEY_SCHEMA } from '../../subgraphs/kernel/idempotency.ts';
import { inputSchema, type JsonSchema } from '../json-schema.ts';

/** The argument every mutating tool takes besides its operation's variables (server.ts strips it). */
export const IDEMPOTENCY_ARG = 'idempotencyKey';

export interface ToolDefinition {
  name: string;
  description: string;
  /** Callable without a credential (organisation signup). */
  public: boolean;
  readOnly: boolean;
  query: string;
  rootField: string;
  inputSchema: JsonSchema;
}

const TOOLS_DIR = join(import.meta.dirname, 'tools');
const FRAGMENTS_DIR = join(import.meta.dirname, 'fragments');

/**
 * Reads every `tools/<name>.graphql`: its leading comment is the description (`# access: public`
 * marks the signup tools), its variables become the tool's JSON Schema, checked against the
 * supergraph so a broken tool fails at start-up rather than when an agent calls it. Shared
 * selections live in `fragments/*.graphql`; each tool gets the ones it spreads.
 */
export function loadTools(schema: GraphQLSchema, dir = TOOLS_DIR): ToolDefinition[] {
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
  const comments = source.split('\n').filter((l, i, all) => l.startsWith('#') && all.slice(0, i).every((x) => x.startsWith('#'))).map((l) => l.replace(/^#\s?/, '').trim());
  const description = comments.join(' ').trim();
  if (!description) throw new Error(`MCP tool ${name}: the file must start with a # description`);
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`MCP tool ${name}: ${errors.map((e) => e.message).join('; ')}`);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation || operation.name?.value !== name) throw new Error(`MCP tool ${name}: the operation must be named ${name}`);
  const rootFields = operation.selectionSet.selections.filter((s) => s.kind === Kind.FIELD);
  if (rootFields.length !== 1 || rootFields[0].kind !== Kind.FIELD) throw new Error(`MCP tool ${name}: select exactly one root field`);

  const descriptions = variableDescriptions(schema, document);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const def of operation.variableDefinitions ?? []) {
    const variable = def.variable.name.value;
    const type = typeFromAST(schema, def.type as any) as GraphQLInputType | undefined;
    if (!type) throw new Error(`MCP tool ${name}: unknown type of $${variable}`);
    properties[variable] = inputSchema(type, descriptions.get(variable), true);
    if (def.type.kind === Kind.NON_NULL_TYPE && !def.defaultValue) required.push(variable);
  }
  const readOnly = operation.operation === 'query';
  if (!readOnly) {
    if (properties[IDEMPOTENCY_ARG]) throw new Error(`MCP tool ${name}: $${IDEMPOTENCY_ARG} is reserved`);
    properties[IDEMPOTENCY_ARG] = {
      ...KEY_SCHEMA,
      description: 'Optional unique key (e.g. a UUID) that makes a retry safe: for 24 hours a repeat of this call with the same key and arguments returns the first result without running it again.',
    };
  }
  return {
    name,
    description,
    // Callable without a key only when its root field needs no caller (the signup pair).
    public: accessOf(rootFields[0].name.value) === 'none',
    readOnly,
    query: source,
    rootField: rootFields[0].name.value,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
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
