import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { GraphQLISODateTime } from 'type-graphql';

/** Timestamps: ISO-8601 strings with an offset. */
export const DateTime = GraphQLISODateTime;

function literal(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value)]));
    case Kind.LIST:
      return ast.values.map(literal);
    default:
      return null;
  }
}

/** A JSON object (free-form data such as block props or extra registration answers). */
export const JSONObject = new GraphQLScalarType({
  name: 'JSONObject',
  description: 'A JSON object.',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('JSONObject must be an object');
    return value;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.OBJECT) throw new TypeError('JSONObject must be an object');
    return literal(ast);
  },
});
