import { getNamedType, isInputObjectType, isNonNullType, type GraphQLField } from 'graphql';
import { inputSchema, type JsonSchema } from '../json-schema.ts';

/**
 * What a REST client sends besides the path: the query parameters (GET, DELETE) or the flat JSON
 * body (POST, PUT, PATCH) of a route, as one JSON Schema object. A field's `input` object is the
 * whole body, its fields flat; other arguments sit beside them. The OpenAPI document publishes
 * this schema and the facade checks requests against it, so the two cannot disagree.
 */
export function requestSchema(route: { method: string; params: string[] }, field: GraphQLField<unknown, unknown>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const inQuery = route.method === 'GET' || route.method === 'DELETE';
  for (const arg of field.args) {
    if (route.params.includes(arg.name)) continue;
    if (!inQuery && arg.name === 'input' && isInputObjectType(getNamedType(arg.type))) {
      const s = inputSchema(arg.type);
      Object.assign(properties, s.properties);
      required.push(...((s.required as string[]) ?? []));
    } else {
      properties[arg.name] = inputSchema(arg.type, arg.description);
      if (isNonNullType(arg.type) && arg.defaultValue === undefined) required.push(arg.name);
    }
  }
  return { type: 'object', properties, additionalProperties: false, ...(required.length ? { required } : {}) };
}
