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

/** A decimal amount in major units, given as a string ("49.00") or a number (49); always shown as a string. */
export const Decimal = new GraphQLScalarType({
  name: 'Decimal',
  description: 'A decimal amount in major currency units, such as "49.00" (a JSON number is accepted too).',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return value.trim();
    throw new TypeError('Decimal must be a number or a decimal string such as "49.00"');
  },
  parseLiteral: (ast) => {
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT || ast.kind === Kind.STRING) return ast.value;
    throw new TypeError('Decimal must be a number or a decimal string');
  },
});
