import { z } from 'zod';
import type { JsonSchema } from './json-schema.ts';

/**
 * Input checks the REST and MCP facades share, run before anything else reads a value: how deep
 * it nests, whether its text holds control characters, and whether it fits the operation's JSON
 * Schema. Each finding names the field and says what is wrong in the caller's words, never
 * repeating the rejected value (it may be megabytes).
 */
export interface InputProblem {
  field: string;
  problem: string;
}

/** Deeper than any real input (a menu with submenus is 6); a recursive walk never goes further. */
export const MAX_JSON_DEPTH = 32;

/** C0 controls and DEL, except tab, line feed and carriage return, which text may hold. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const hasControlCharacters = (text: string) => CONTROL_CHARACTERS.test(text);

/** `customer.email`, `blocks[0].type`: how every error names a field. */
export function fieldPath(segments: readonly PropertyKey[]): string {
  return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : `${i ? '.' : ''}${String(s)}`)).join('');
}

/**
 * The longest text anywhere in an input, free-form objects included (a post block's text, a survey
 * answer). Typed fields have their own, shorter bound in their schema (json-schema.ts).
 */
export const MAX_STRING_LENGTH = 100_000;

/** The first place a JSON value nests deeper than MAX_JSON_DEPTH, holds a control character or a string too long. */
export function unsafeValue(value: unknown, path: PropertyKey[] = [], depth = 1): InputProblem | undefined {
  if (typeof value === 'string') {
    if (value.length > MAX_STRING_LENGTH) return { field: fieldPath(path) || 'body', problem: `must be at most ${MAX_STRING_LENGTH} characters` };
    return hasControlCharacters(value) ? { field: fieldPath(path) || 'body', problem: 'must not contain control characters' } : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > MAX_JSON_DEPTH) return { field: fieldPath(path) || 'body', problem: `nests deeper than ${MAX_JSON_DEPTH} levels` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unsafeValue(value[i], [...path, i], depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (hasControlCharacters(key)) return { field: fieldPath(path) || 'body', problem: 'has a property name with control characters' };
    const found = unsafeValue(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

export type Validator = (value: unknown) => InputProblem | undefined;

/**
 * A checker of values against a JSON Schema (the subset json-schema.ts produces). The zod schema is
 * built on the first check: a start makes one per MCP tool and REST body, most of them unused for a
 * while (building them all was ~70 ms of every start); the registry's tests build every one.
 */
export function validator(schema: JsonSchema, whole = 'arguments'): Validator {
  let zod: z.ZodType | undefined;
  return (value) => {
    zod ??= z.fromJSONSchema(schema);
    const parsed = zod.safeParse(value);
    return parsed.success ? undefined : describeIssue(parsed.error.issues[0], value, schema, whole);
  };
}

type Issue = z.core.$ZodIssue;

/** A zod issue in our words: the field path and what is wrong with it, worded from the schema. */
function describeIssue(issue: Issue, value: unknown, schema: JsonSchema, whole: string): InputProblem {
  if (issue.code === 'unrecognized_keys') return { field: fieldPath([...issue.path, issue.keys[0]]), problem: 'is not a known field' };
  if (issue.code === 'invalid_union') {
    // A nullable value is `anyOf: [schema, null]`: report what is wrong against the schema.
    const branch = issue.errors.find((errors) => !errors.some((e) => e.code === 'invalid_type' && e.expected === 'null')) ?? issue.errors[0];
    if (branch?.[0]) return describeIssue({ ...branch[0], path: [...issue.path, ...branch[0].path] } as Issue, value, schema, whole);
  }
  const field = fieldPath(issue.path) || whole;
  const given = issue.path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), value);
  if (given === undefined && issue.path.length) return { field, problem: 'is required' };
  const expected = schemaAt(schema, issue.path);
  if (issue.code === 'invalid_value') return { field, problem: `must be one of ${issue.values.map(String).join(', ')}` };
  if (issue.code === 'invalid_type') return { field, problem: `must be ${describeType(expected) ?? describeType({ type: issue.expected })}` };
  if (issue.code === 'invalid_format')
    return {
      field,
      problem:
        expected?.format === 'date-time'
          ? 'must be an ISO-8601 date and time with offset'
          : expected?.format === 'date'
            ? 'must be a date (YYYY-MM-DD)'
            : `is not in the expected format${expected?.description ? ` (${expected.description})` : ''}`,
    };
  if (issue.code === 'too_big')
    return {
      field,
      problem:
        issue.origin === 'string'
          ? `must be at most ${issue.maximum} characters`
          : issue.origin === 'array'
            ? `must have at most ${issue.maximum} items`
            : `must be at most ${issue.maximum}`,
    };
  if (issue.code === 'too_small')
    return {
      field,
      problem:
        issue.origin === 'string'
          ? Number(issue.minimum) <= 1
            ? 'must not be empty'
            : `must be at least ${issue.minimum} characters`
          : issue.origin === 'array'
            ? `must have at least ${issue.minimum} items`
            : `must be at least ${issue.minimum}`,
    };
  return { field, problem: 'is not valid' };
}

/** The schema of the value at `path` (through nullable unions, objects and arrays). */
function schemaAt(schema: JsonSchema | undefined, path: readonly PropertyKey[]): JsonSchema | undefined {
  let at = schema;
  for (const segment of path) {
    at = nonNull(at);
    if (!at) return undefined;
    at =
      typeof segment === 'number'
        ? (at.items as JsonSchema | undefined)
        : ((at.properties as Record<string, JsonSchema> | undefined)?.[String(segment)] ?? undefined);
  }
  return nonNull(at);
}

function nonNull(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema || !Array.isArray(schema.anyOf)) return schema;
  const branches = (schema.anyOf as JsonSchema[]).filter((b) => b.type !== 'null');
  return branches.length === 1 ? { ...branches[0], description: schema.description ?? branches[0].description } : schema;
}

function describeType(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return undefined;
  if (Array.isArray(schema.anyOf)) return 'a decimal amount such as "49.90"';
  switch (schema.type) {
    case 'integer':
    case 'int':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'string':
      return 'a string';
    case 'array':
      return 'a list';
    case 'object':
      return 'a JSON object';
    default:
      return undefined;
  }
}
