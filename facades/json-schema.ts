import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLType,
} from 'graphql';

/** JSON Schema (the subset both MCP tool schemas and OpenAPI 3.0 accept). */
export type JsonSchema = { [key: string]: unknown };

const DECIMAL_PATTERN = '^-?\\d+(\\.\\d+)?$';

/** Each scalar of ours as JSON Schema: what an input accepts, and what REST's OpenAPI document describes. */
const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTimeISO: { type: 'string', format: 'date-time' },
  JSONObject: { type: 'object', additionalProperties: true },
  Decimal: { anyOf: [{ type: 'string', pattern: DECIMAL_PATTERN }, { type: 'number' }], description: 'Decimal amount in major units, e.g. "49.00"' },
  Date: { type: 'string', format: 'date' },
};

/**
 * What each scalar looks like in a response (what its `serialize` gives), for MCP output schemas:
 * as above (copies: the MCP facade adds bounds to input schemas in place), but a decimal is
 * always sent as a string.
 */
const RESPONSE_SCALARS: Record<string, JsonSchema> = {
  ...structuredClone(SCALARS),
  Decimal: { type: 'string', pattern: DECIMAL_PATTERN, description: 'Decimal in major units, e.g. "49.00".' },
};

/** A scalar in a response; one no entry above knows is an error at start-up naming it, rather than a schema that lies. */
export function responseScalarSchema(name: string, where: string): JsonSchema {
  const known = RESPONSE_SCALARS[name];
  if (!known) throw new Error(`${where}: the output schema knows no scalar ${name}; add it to SCALARS in facades/json-schema.ts`);
  return { ...known };
}

/** A nullable value: anyOf with one type per branch (portable, no `type` arrays), its description outside. */
export function orNull(schema: JsonSchema): JsonSchema {
  const { description, ...rest } = schema;
  return { anyOf: [rest, { type: 'null' }], ...(description ? { description } : {}) };
}

/** An enum's values, by name. */
export const enumSchema = (type: GraphQLEnumType): JsonSchema => ({ type: 'string', enum: type.getValues().map((v) => v.name) });

/** A schema with a description; beside a `$ref` nothing may stand (OpenAPI 3.0), so the reference goes in an `allOf`. */
const withDescription = (schema: JsonSchema, description?: string | null) =>
  !description ? schema : schema.$ref ? { allOf: [schema], description } : { ...schema, description };

/** An enum's description with what each of its values means (JSON Schema has no per-value descriptions). */
function enumDescription(type: GraphQLEnumType, description?: string | null): string | undefined {
  const head = description ?? type.description ?? '';
  const values = type.getValues().filter((v) => v.description);
  if (!values.length) return head || undefined;
  return `${head ? `${head} ` : ''}${values.map((v) => `${v.name}: ${v.description}`).join(' ')}`;
}

/**
 * The JSON Schema of a GraphQL input type, inline (no $ref): non-null → required, enums,
 * lists and nested input objects, and unknown properties refused. With `allowNull` (MCP) a
 * nullable value also accepts JSON null, as GraphQL does; OpenAPI 3.0 has no null type.
 */
export function inputSchema(type: GraphQLInputType, description?: string | null, allowNull = false, parents: string[] = []): JsonSchema {
  if (isNonNullType(type)) return nonNull(type.ofType, description, allowNull, parents);
  const schema = nonNull(type, description, allowNull, parents);
  return allowNull ? orNull(schema) : schema;
}

function nonNull(type: GraphQLInputType, description: string | null | undefined, allowNull: boolean, parents: string[]): JsonSchema {
  if (isListType(type)) return withDescription({ type: 'array', items: inputSchema(type.ofType, undefined, allowNull, parents) }, description);
  if (isEnumType(type)) return withDescription(enumSchema(type), enumDescription(type, description));
  if (isInputObjectType(type)) {
    // A recursive type (menu items with children) is described to a few levels, then left open.
    if (parents.filter((p) => p === type.name).length >= 2) return withDescription({ type: 'object', description: `${type.name}, nested` }, description);
    const fields = Object.values(type.getFields());
    const inner = [...parents, type.name];
    const schema: JsonSchema = {
      type: 'object',
      properties: Object.fromEntries(fields.map((f) => [f.name, inputSchema(f.type, f.description, allowNull, inner)])),
      additionalProperties: false,
    };
    const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
    if (required.length) schema.required = required;
    return withDescription(schema, description ?? type.description);
  }
  return withDescription(
    INPUT_BOUNDS[type.name] ?? SCALARS[type.name] ?? { type: 'string' },
    description ?? (SCALARS[type.name] ? undefined : type.description),
  );
}

/**
 * Text an input may carry: longer than any name, message or description, far shorter than a body
 * may be. Both facades refuse more, naming the field, before anything runs.
 */
export const MAX_TEXT_LENGTH = 10_000;
const INPUT_BOUNDS: Record<string, JsonSchema> = {
  String: { type: 'string', maxLength: MAX_TEXT_LENGTH },
  ID: { type: 'string', maxLength: 1_000 },
};

/**
 * The schema of a GraphQL output type for OpenAPI: named object types go to `components`
 * and are referenced; nullable fields are marked `nullable` (OpenAPI 3.0).
 */
export function outputSchema(type: GraphQLOutputType | GraphQLType, components: Record<string, JsonSchema>): JsonSchema {
  const nullable = !isNonNullType(type);
  const inner = isNonNullType(type) ? type.ofType : type;
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: 'array', items: outputSchema(inner.ofType, components) };
  else if (isObjectType(inner)) {
    if (!components[inner.name]) {
      components[inner.name] = {}; // placeholder against cycles
      const fields = Object.values(inner.getFields());
      components[inner.name] = {
        type: 'object',
        ...(inner.description ? { description: inner.description } : {}),
        properties: Object.fromEntries(fields.map((f) => [f.name, withDescription(outputSchema(f.type, components), f.description)])),
      };
      // OpenAPI 3.0 wants `required` absent rather than empty (an object of nullable fields).
      const required = fields.filter((f) => isNonNullType(f.type)).map((f) => f.name);
      if (required.length) components[inner.name].required = required;
    }
    return { $ref: `#/components/schemas/${inner.name}` };
  } else if (isEnumType(inner)) schema = withDescription(enumSchema(inner), enumDescription(inner));
  else if (isScalarType(inner)) schema = { ...(SCALARS[inner.name] ?? { type: 'string' }) };
  else schema = { type: 'object', description: `${getNamedType(inner).name}` };
  return nullable ? { ...schema, nullable: true } : schema;
}

/**
 * A value with its enum strings in the schema's own spelling: states were matched in any case
 * before they became enums (`no_show`, `PUBLISHED`), so the facades keep accepting that. A string
 * that matches no value is left as it is, for validation to refuse it.
 */
export function canonicalEnums(schema: JsonSchema | undefined, value: unknown): unknown {
  if (!schema || value === null || value === undefined) return value;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).reduce<unknown>((v, branch) => canonicalEnums(branch, v), value);
  if (Array.isArray(schema.enum) && typeof value === 'string' && !schema.enum.includes(value)) {
    const matches = (schema.enum as unknown[]).filter((e) => typeof e === 'string' && e.toLowerCase() === value.toLowerCase());
    return matches.length === 1 ? matches[0] : value;
  }
  if (schema.items && Array.isArray(value)) return value.map((item) => canonicalEnums(schema.items as JsonSchema, item));
  if (schema.properties && typeof value === 'object' && !Array.isArray(value)) {
    const properties = schema.properties as Record<string, JsonSchema>;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, Object.hasOwn(properties, k) ? canonicalEnums(properties[k], v) : v]),
    );
  }
  return value;
}
