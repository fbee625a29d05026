import {
  Kind,
  isEnumType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  typeFromAST,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { enumSchema, orNull, responseScalarSchema, type JsonSchema } from '../json-schema.ts';

/**
 * The JSON Schema of what an operation's selection returns, field by field, as the input schema is
 * derived from its variables: exactly the fields selected (aliases as named), each required
 * (GraphQL always sends a selected field, null when it has no value), null allowed where the
 * schema's type is nullable, descriptions from the schema. `where` names the tool in errors.
 */
export function selectionSchema(
  schema: GraphQLSchema,
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  where: string,
): JsonSchema {
  if (isNonNullType(type)) {
    const inner = selectionSchema(schema, type.ofType, selectionSet, fragments, where);
    const [only] = (inner.anyOf as JsonSchema[]).filter((b) => b.type !== 'null');
    return inner.description && !only.description ? { ...only, description: inner.description } : only;
  }
  if (isListType(type)) return orNull({ type: 'array', items: selectionSchema(schema, type.ofType, selectionSet, fragments, where) });
  if (isEnumType(type)) return orNull(enumSchema(type));
  if (isScalarType(type)) return orNull(responseScalarSchema(type.name, where));
  return orNull(objectSchema(schema, type as GraphQLCompositeType, selectionSet, fragments, where));
}

interface Collected {
  properties: Record<string, JsonSchema>;
  required: Set<string>;
}

function objectSchema(
  schema: GraphQLSchema,
  type: GraphQLCompositeType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  where: string,
): JsonSchema {
  if (!selectionSet) throw new Error(`${where}: ${type.name} needs a selection`);
  const found: Collected = { properties: {}, required: new Set() };
  collect(schema, type, selectionSet, fragments, where, found, true);
  return {
    type: 'object',
    ...(type.description ? { description: type.description } : {}),
    properties: found.properties,
    required: [...found.required],
    additionalProperties: false,
  };
}

/**
 * The fields a selection set gives, through fragments. A field under a type condition narrower
 * than `type` (one implementation of an interface) or under @include/@skip may be absent.
 */
function collect(
  schema: GraphQLSchema,
  type: GraphQLCompositeType,
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  where: string,
  into: Collected,
  always: boolean,
) {
  for (const selection of selectionSet.selections) {
    const conditional = !!selection.directives?.some((d) => d.name.value === 'include' || d.name.value === 'skip');
    if (selection.kind === Kind.FIELD) {
      addField(schema, type, selection, fragments, where, into, always && !conditional);
      continue;
    }
    const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
    if (!fragment) throw new Error(`${where}: unknown fragment`);
    const condition = fragment.typeCondition ? (typeFromAST(schema, fragment.typeCondition) as GraphQLCompositeType) : type;
    const narrower = condition.name !== type.name;
    collect(schema, narrower ? condition : type, fragment.selectionSet, fragments, where, into, always && !conditional && !narrower);
  }
}

function addField(
  schema: GraphQLSchema,
  type: GraphQLCompositeType,
  node: FieldNode,
  fragments: Map<string, FragmentDefinitionNode>,
  where: string,
  into: Collected,
  always: boolean,
) {
  const key = node.alias?.value ?? node.name.value;
  if (node.name.value === '__typename') {
    into.properties[key] = { type: 'string', description: 'The GraphQL type of this object.' };
  } else {
    const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[node.name.value] : undefined;
    if (!field) throw new Error(`${where}: ${type.name}.${node.name.value} is not a field`);
    const next = selectionSchema(schema, field.type, node.selectionSet, fragments, `${where} ${type.name}.${field.name}`);
    const existing = into.properties[key];
    // The same field selected twice (by a fragment and by the operation): the selections merge.
    const merged = existing ? mergeObjects(existing, next) : next;
    into.properties[key] = field.description && !merged.description ? { ...merged, description: field.description } : merged;
  }
  if (always) into.required.add(key);
}

/** Two schemas of one field selected twice: the union of their object properties. */
function mergeObjects(a: JsonSchema, b: JsonSchema): JsonSchema {
  const objectOf = (s: JsonSchema): JsonSchema | undefined =>
    s.type === 'object'
      ? s
      : Array.isArray(s.anyOf)
        ? objectOf((s.anyOf as JsonSchema[]).find((x) => x.type !== 'null') ?? {})
        : s.type === 'array'
          ? objectOf(s.items as JsonSchema)
          : undefined;
  const left = objectOf(a);
  const right = objectOf(b);
  if (!left?.properties || !right?.properties) return b;
  left.properties = { ...(left.properties as object), ...(right.properties as object) };
  left.required = [...new Set([...((left.required as string[]) ?? []), ...((right.required as string[]) ?? [])])];
  return a;
}
