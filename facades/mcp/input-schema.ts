import type { JsonSchema } from '../json-schema.ts';

/**
 * Bounds of a number, read from the sentence that describes it in the GraphQL schema ("At least
 * 1.", "Between 1 and 100.", "At most 6."): the schema states them once, for people, and the tool
 * schema carries them as `minimum`/`maximum`, so the two cannot disagree. The server still checks.
 */
export function boundsOf(description: string | undefined): { minimum?: number; maximum?: number } {
  if (!description) return {};
  const between = /\b(?:between|from) (-?\d+) (?:and|to) (-?\d+)\b/i.exec(description);
  if (between) return { minimum: Number(between[1]), maximum: Number(between[2]) };
  const least = /\bat least (-?\d+)\b/i.exec(description);
  const most = /\bat most (-?\d+)\b/i.exec(description);
  return { ...(least ? { minimum: Number(least[1]) } : {}), ...(most ? { maximum: Number(most[1]) } : {}) };
}

/** Every integer or number in a schema with the bounds its description states (in place). */
export function withBounds(schema: JsonSchema): JsonSchema {
  visitSchemas(schema, (node, description) => {
    if (node.type === 'integer' || node.type === 'number') Object.assign(node, boundsOf(description));
  });
  return schema;
}

/**
 * Calls `visit` with every subschema and the description that applies to it (its own, or that of
 * the nullable union around it).
 */
export function visitSchemas(schema: JsonSchema, visit: (node: JsonSchema, description: string | undefined, path: string) => void, path = '', outer?: string) {
  const description = (schema.description as string | undefined) ?? outer;
  visit(schema, description, path);
  if (Array.isArray(schema.anyOf)) for (const branch of schema.anyOf as JsonSchema[]) visitSchemas(branch, visit, path, description);
  if (schema.items && typeof schema.items === 'object') visitSchemas(schema.items as JsonSchema, visit, `${path}[]`);
  if (schema.properties) {
    for (const [key, sub] of Object.entries(schema.properties as Record<string, JsonSchema>)) visitSchemas(sub, visit, path ? `${path}.${key}` : key);
  }
}

/**
 * A parameter that holds a one-time code: named `code` and described as one ("The 6-digit one-time
 * code…"). Not every code: a postal code, or a promotion code (also named `code` in
 * create_promotion), given as a number is more likely a mistake than digits meant (a leading zero
 * is lost), and is refused as any other string parameter is.
 */
const isOneTimeCode = (name: string, branches: JsonSchema[]) =>
  name === 'code' && branches.some((b) => typeof b.description === 'string' && /one-time/i.test(b.description));

/**
 * An agent often writes a code of digits as a JSON number (`891064`). Where a code parameter wants
 * a string and the number is a whole non-negative one, its digits are the string meant, with one
 * exception it cannot tell apart: a code that started with 0 (the number lost it), which the
 * field's own check then refuses (the facade adds how to quote it). Any other string parameter
 * given a number is refused as before, and so is a fraction, an exponent or a huge number.
 */
export function digitsAsStrings(schema: JsonSchema | undefined, value: unknown, name = ''): unknown {
  if (!schema || value === null || value === undefined) return value;
  const branches = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [schema];
  if (typeof value === 'number') {
    const wantsString =
      isOneTimeCode(name, branches) &&
      branches.some((b) => b.type === 'string' && !b.format && !b.enum) &&
      !branches.some((b) => b.type === 'number' || b.type === 'integer');
    return wantsString && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
  }
  const object = branches.find((b) => b.properties);
  if (object && typeof value === 'object' && !Array.isArray(value)) {
    const properties = object.properties as Record<string, JsonSchema>;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, Object.hasOwn(properties, k) ? digitsAsStrings(properties[k], v, k) : v]),
    );
  }
  const list = branches.find((b) => b.items);
  if (list && Array.isArray(value)) return value.map((item) => digitsAsStrings(list.items as JsonSchema, item, name));
  return value;
}

/** The words added to "must be a string" when a number was given for it. */
export const QUOTE_HINT = '; put the value in double quotes, e.g. "012345" (a JSON number drops leading zeros)';
