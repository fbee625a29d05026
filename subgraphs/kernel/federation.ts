import { readFileSync } from 'node:fs';
import {
  buildASTSchema,
  concatAST,
  GraphQLError,
  isTypeExtensionNode,
  Kind,
  parse,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SchemaExtensionNode,
  type TypeNode,
} from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
// What buildSubgraphSchema attaches resolvers with and resolves entities by (@apollo/subgraph 2.14).
import { addResolversToSchema } from '@apollo/subgraph/dist/schema-helper/buildSchemaFromSDL.js';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap.js';
import { entitiesResolver } from '@apollo/subgraph/dist/types.js';
import { getDocumentNodeFromSchema } from '@graphql-tools/utils';
import { buildSchema, createResolversMap, getMetadataStorage, type ClassType, type NonEmptyArray } from 'type-graphql';
import { authChecker } from './access.ts';
import type { RequestContext } from './context.ts';
import { AppError, isErrorCode, isGraphQLErrorLike, pgErrorCode, PG_BAD_TEXT, PG_UNIQUE_VIOLATION } from './errors.ts';
import { coercionError, isGraphqlCoercionMessage } from './graphql-words.ts';

const FEDERATION_LINK = parse(
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@tag", "@cost", "@listSize"])',
);

/** An entity representation the router sends to `_entities`: its type name and its `@key` field (every key here is `id`). */
export interface EntityReference {
  __typename: string;
  id: string;
}

export type ReferenceResolver = (reference: EntityReference, ctx: RequestContext) => unknown;

/** Resolvers by type name and field name (type-graphql's map, with references and direct field resolvers added). */
type Resolvers = Record<string, Record<string, unknown>>;

/**
 * type-graphql classes → a Federation 2 subgraph schema: build, print with directives, link the
 * federation spec, and rebuild with `buildSubgraphSchema` plus each entity's `__resolveReference`.
 */
export async function buildFederatedSchema(options: {
  /** The subgraph's name (its module's), under which the build keeps its SDL. */
  name: string;
  resolvers: NonEmptyArray<ClassType>;
  orphanedTypes?: ClassType[];
  references?: Record<string, ReferenceResolver>;
}): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: options.resolvers,
    orphanedTypes: options.orphanedTypes,
    authChecker,
    authMode: 'error',
    skipCheck: true,
    validate: false,
    container: resolverInstances,
  });
  const resolvers = createResolversMap(schema) as Resolvers;
  withoutPlainFieldResolvers(resolvers);
  withDirectFieldResolvers(resolvers, options.resolvers);
  for (const [typeName, resolve] of Object.entries(options.references ?? {})) {
    resolvers[typeName] = {
      ...resolvers[typeName],
      // Entity references skip resolver decorators, so they authenticate here to scope the tenant.
      __resolveReference: async (reference: EntityReference, ctx: RequestContext) => {
        await ctx.authenticate();
        return resolve(reference, ctx);
      },
    };
  }
  const built = builtSubgraphs?.[options.name];
  if (built !== undefined) return subgraphSchemaOf(built, resolvers);
  // The schema's document as it is: printing it and parsing the text again was a fifth of the
  // time a start spent building subgraph schemas.
  const typeDefs = withPageSizes(concatAST([FEDERATION_LINK, getDocumentNodeFromSchema(schema)]));
  return buildSubgraphSchema({ typeDefs, resolvers: resolvers as GraphQLResolverMap<unknown> });
}

/**
 * Each subgraph's SDL as `buildSubgraphSchema` printed it (its `_service.sdl`) and that SDL parsed,
 * worked out by `npm run build` from the code it bundled (scripts/snapshot.ts, dist/subgraphs.json)
 * and set by the built entry points; unset from source (tsx, tests). The parsed document is read as
 * JSON: parsing the six SDLs (135 KB) was ~18 ms of a start, reading it ~3.
 */
let builtSubgraphs: Record<string, BuiltSubgraph> | undefined;

export interface BuiltSubgraph {
  sdl: string;
  document: DocumentNode;
}

/** What dist/subgraphs.json holds for a subgraph's SDL (scripts/snapshot.ts). */
export function builtSubgraph(sdl: string): BuiltSubgraph {
  return { sdl, document: parse(sdl, { noLocation: true }) };
}

export function serveBuiltSubgraphs(file: string | undefined): void {
  builtSubgraphs = file === undefined ? undefined : JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * What `buildSubgraphSchema` makes, from the SDL it printed for the same code: its graphql-js
 * schema is built from that very text (`Schema.toGraphQLJSSchema` in @apollo/federation-internals
 * parses its own print, adds an empty definition for what is only extended, and builds), with the
 * same resolvers. Without validating the subgraph again and printing it: ~0.1 s of a start for
 * our six (test/platform/startup.test.ts checks both ways give the same schema).
 */
function subgraphSchemaOf({ sdl, document }: BuiltSubgraph, resolvers: Resolvers): GraphQLSchema {
  const defined = new Set<string>();
  const extended = new Map<string, Kind>();
  let schemaDefined = false;
  let schemaExtended = false;
  for (const d of document.definitions) {
    if (d.kind === Kind.SCHEMA_DEFINITION) schemaDefined = true;
    else if (d.kind === Kind.SCHEMA_EXTENSION) schemaExtended = true;
    else if (isTypeExtensionNode(d)) extended.set(d.name.value, definitionKindOf[d.kind]);
    else if ('name' in d && d.kind !== Kind.DIRECTIVE_DEFINITION) defined.add(d.name!.value);
  }
  const empty: DefinitionNode[] = [];
  if (schemaExtended && !schemaDefined) empty.push({ kind: Kind.SCHEMA_DEFINITION, operationTypes: [] });
  for (const [name, kind] of extended) if (!defined.has(name)) empty.push({ kind, name: { kind: Kind.NAME, value: name } } as DefinitionNode);
  const schema = buildASTSchema({ kind: Kind.DOCUMENT, definitions: [...document.definitions, ...empty] }, { assumeValidSDL: true });
  // As toGraphQLJSSchema leaves them: the added definitions are no AST of the schema's.
  for (const node of empty) {
    if (node.kind === Kind.SCHEMA_DEFINITION) schema.astNode = undefined;
    else schema.getType((node as { name: { value: string } }).name.value)!.astNode = undefined;
  }
  const query = schema.getQueryType()!.name;
  addResolversToSchema(schema, { [query]: { _service: () => ({ sdl }) } });
  if (schema.getType('_Entity')) {
    addResolversToSchema(schema, {
      [query]: {
        _entities: (_source: unknown, { representations }: { representations: unknown }, context: unknown, info: GraphQLResolveInfo) =>
          entitiesResolver({ representations, context, info }),
      },
      _Entity: { __resolveType: (parent: { __typename: string }) => parent.__typename },
    });
  }
  addResolversToSchema(schema, resolvers as GraphQLResolverMap<unknown>);
  return schema;
}

const definitionKindOf: Record<string, Kind> = {
  [Kind.OBJECT_TYPE_EXTENSION]: Kind.OBJECT_TYPE_DEFINITION,
  [Kind.INTERFACE_TYPE_EXTENSION]: Kind.INTERFACE_TYPE_DEFINITION,
  [Kind.UNION_TYPE_EXTENSION]: Kind.UNION_TYPE_DEFINITION,
  [Kind.ENUM_TYPE_EXTENSION]: Kind.ENUM_TYPE_DEFINITION,
  [Kind.INPUT_OBJECT_TYPE_EXTENSION]: Kind.INPUT_OBJECT_TYPE_DEFINITION,
  [Kind.SCALAR_TYPE_EXTENSION]: Kind.SCALAR_TYPE_DEFINITION,
};

/**
 * type-graphql gives every `@Field` a resolver of its own that reads the property through its
 * middleware chain (unless the field says `simple: true`), even where that chain is empty. For a
 * field with no roles, no middlewares, no field resolver and its property's own name, that is
 * exactly GraphQL's default resolver: dropping it spares a call, an object and (with graphql-jit,
 * router/compiled-execution.ts) the info object built for every field of every item of a list.
 * Run after `buildSchema`, which fills each field's roles and middlewares in. type-graphql's
 * metadata is global (every subgraph's classes): a field keeps its resolver if any class of that
 * type name, or any field resolver of that name, gives it one of its own.
 */
function withoutPlainFieldResolvers(resolvers: Resolvers): void {
  const storage = getMetadataStorage();
  const typeNames = new Map<unknown, string>(storage.objectTypes.map((o) => [o.target, o.name]));
  const kept = new Set<string>();
  for (const r of storage.fieldResolvers) for (const name of [r.schemaName, r.methodName]) kept.add(`${typeNames.get(r.getObjectType?.()) ?? '*'}.${name}`);
  for (const o of storage.objectTypes) {
    for (const f of o.fields ?? []) if (f.roles !== undefined || f.middlewares?.length || f.name !== f.schemaName) kept.add(`${o.name}.${f.schemaName}`);
  }
  for (const o of storage.objectTypes) {
    const fields = resolvers[o.name];
    if (!fields) continue;
    for (const f of o.fields ?? []) if (!kept.has(`${o.name}.${f.schemaName}`) && !kept.has(`*.${f.schemaName}`)) delete fields[f.schemaName];
  }
}

/**
 * One instance of each resolver class, found in a map. type-graphql's default container keeps them
 * in an array it searches with `Array.find` (and a new closure) on every resolver call.
 */
const instances = new Map<new () => object, object>();
const resolverInstances = {
  get(target: new () => object): object {
    let instance = instances.get(target);
    if (!instance) instances.set(target, (instance = new target()));
    return instance;
  },
};

/**
 * A field resolver of a resolver class that takes only the parent and the context (`@Ctx() ctx,
 * @Root() parent`, in either order, or one of them), with no roles and no middlewares, is called
 * straight. type-graphql's wrapper around it builds a resolver-data object, looks the instance up
 * and maps the parameters into a new array on every call: a services list makes ~140 such calls
 * (each service's category, staff and resources, each staff member's fields), and the wrapper was
 * a ninth of what the list allocated. Any other field resolver keeps type-graphql's wrapper.
 */
function withDirectFieldResolvers(resolvers: Resolvers, classes: readonly ClassType[]): void {
  const storage = getMetadataStorage();
  const typeNames = new Map<unknown, string>(storage.objectTypes.map((o) => [o.target, o.name]));
  const ours = new Set<unknown>(classes);
  const direct = new Map<string, ((root: unknown, args: unknown, ctx: unknown) => unknown) | null>();
  for (const r of storage.fieldResolvers) {
    if (r.kind !== 'external' || !ours.has(r.target)) continue;
    const typeName = typeNames.get(r.getObjectType?.());
    if (!typeName) continue;
    const key = `${typeName}.${r.schemaName}`;
    // Two resolvers of one field (an override): left to type-graphql.
    direct.set(key, direct.has(key) ? null : directCall(r));
  }
  for (const [key, resolve] of direct) {
    const [typeName, field] = key.split('.');
    if (resolve && resolvers[typeName]?.[field]) resolvers[typeName][field] = resolve;
  }
}

type FieldResolverMetadata = ReturnType<typeof getMetadataStorage>['fieldResolvers'][number];

function directCall(r: FieldResolverMetadata): ((root: unknown, args: unknown, ctx: unknown) => unknown) | null {
  if (r.roles !== undefined || r.middlewares?.length) return null;
  const params = [...(r.params ?? [])].sort((a, b) => a.index - b.index);
  if (params.some((p) => (p.kind !== 'root' && p.kind !== 'context') || ('propertyName' in p && p.propertyName) || ('getType' in p && p.getType))) return null;
  const instance = resolverInstances.get(r.target as new () => object) as Record<string, (...args: unknown[]) => unknown>;
  const method = instance[r.methodName];
  const kinds = params.map((p) => p.kind).join(',');
  if (kinds === 'context,root') return (root, _args, ctx) => method.call(instance, ctx, root);
  if (kinds === 'root,context') return (root, _args, ctx) => method.call(instance, root, ctx);
  if (kinds === 'root') return (root) => method.call(instance, root);
  if (kinds === 'context') return (_root, _args, ctx) => method.call(instance, ctx);
  return null;
}

/**
 * Every paged list (a field taking `limit` whose type has an `items` list, the house's list shape)
 * declares its size for cost analysis: `items` holds `limit` entries (the router's demand control,
 * router/limits.ts, counts an omitted `limit` as the default page size). A field declaring its own
 * `@listSize` keeps it.
 */
function withPageSizes(document: DocumentNode): DocumentNode {
  const paged = new Set<string>();
  for (const def of document.definitions) {
    if (
      (def.kind === Kind.OBJECT_TYPE_DEFINITION || def.kind === Kind.OBJECT_TYPE_EXTENSION) &&
      def.fields?.some((f) => f.name.value === 'items' && isListType(f.type))
    )
      paged.add(def.name.value);
  }
  const listSize = (
    parse('extend schema @listSize(slicingArguments: ["limit"], sizedFields: ["items"], requireOneSlicingArgument: false)')
      .definitions[0] as SchemaExtensionNode
  ).directives![0];
  return visit(document, {
    FieldDefinition(field) {
      const takesLimit = field.arguments?.some((a) => a.name.value === 'limit' && namedType(a.type) === 'Int');
      if (!takesLimit || !paged.has(namedType(field.type)) || field.directives?.some((d) => d.name.value === 'listSize')) return undefined;
      return { ...field, directives: [...(field.directives ?? []), listSize] };
    },
  });
}

const isListType = (type: TypeNode): boolean => (type.kind === Kind.NON_NULL_TYPE ? isListType(type.type) : type.kind === Kind.LIST_TYPE);
const namedType = (type: TypeNode): string => (type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type));

/**
 * What a client may see of an error: catalogue errors and GraphQL's own validation errors as they
 * are, a unique violation as CONFLICT, anything else as INTERNAL without its message (logged here).
 * A catalogue error is known by its code, not its class: one made by another copy of graphql (a
 * bundle beside a package loaded from node_modules) is still the client's answer, not a fault.
 */
export function maskError(error: GraphQLError, requestId?: string | null): GraphQLError {
  const original = error.originalError;
  if (!original || original instanceof AppError) return error;
  // A variable that does not coerce (a scalar's parseValue threw): the caller's input, not a fault.
  if (!error.path && isGraphqlCoercionMessage(error.message)) {
    const { message, field } = coercionError(error.message);
    return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', ...(field ? { field } : {}), http: { status: 400 } } });
  }
  if (isGraphQLErrorLike(original)) return isErrorCode(original.extensions?.code) ? withPath(original, error) : error;
  const pgCode = pgErrorCode(original);
  if (pgCode === PG_UNIQUE_VIOLATION) {
    return new GraphQLError('A record with these values already exists', { path: error.path, extensions: { code: 'CONFLICT' } });
  }
  if (pgCode && PG_BAD_TEXT.has(pgCode)) {
    return new GraphQLError('The input contains characters or values that cannot be stored (such as NUL)', {
      path: error.path,
      extensions: { code: 'BAD_USER_INPUT' },
    });
  }
  console.error(`[internal error]${requestId ? ` (request ${requestId})` : ''}`, original);
  return new GraphQLError('Internal server error', { path: error.path, extensions: { code: 'INTERNAL' } });
}

/**
 * Any error as a GraphQL error of this copy of graphql, for `maskError`: a GraphQL error (of any
 * copy, or graphql-jit's, whose `extensions` may be missing) keeps its message, path, extensions
 * and the error it wraps; anything else is wrapped.
 */
export function toGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError && error.extensions) return error;
  if (isGraphQLErrorLike(error) || error instanceof GraphQLError) {
    return new GraphQLError(error.message, { path: error.path, extensions: error.extensions ?? undefined, originalError: error.originalError ?? undefined });
  }
  return new GraphQLError(error instanceof Error ? error.message : 'Unexpected error', {
    originalError: error instanceof Error ? error : new Error(String(error)),
  });
}

function withPath(original: GraphQLError, located: GraphQLError): GraphQLError {
  return new GraphQLError(original.message, { path: located.path, extensions: original.extensions });
}
