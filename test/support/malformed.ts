import { v7 as uuidv7 } from 'uuid';

/**
 * Malformed-input generation for the sweep (test/platform/malformed-input.test.ts): valid sample
 * values and malformed variants derived from JSON Schemas (an OpenAPI request body or query
 * parameter, an MCP tool's inputSchema), and the checks every error answer must pass.
 */

export type Schema = Record<string, any>;
export type Path = (string | number)[];

/** The schema without its `null` alternative (MCP marks a nullable value `anyOf: [X, { type: 'null' }]`). */
export function unwrap(schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf.filter((b: Schema) => b.type !== 'null');
    if (branches.length === 1) return unwrap({ ...branches[0], description: schema.description ?? branches[0].description });
    return { ...schema, anyOf: branches };
  }
  return schema;
}

export type Kind = 'string' | 'enum' | 'integer' | 'number' | 'boolean' | 'decimal' | 'object' | 'record' | 'array' | 'any';

export function kindOf(schema: Schema | undefined): Kind {
  const s = unwrap(schema);
  if (Array.isArray(s.anyOf)) return 'decimal'; // { anyOf: [string with a decimal pattern, number] }
  if (Array.isArray(s.enum)) return 'enum';
  switch (s.type) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
    case 'array':
      return s.type;
    case 'object':
      return s.properties ? 'object' : 'record';
    default:
      return 'any';
  }
}

/** `customer.email`, `blocks[0].type`: how the product names a field. */
export const fieldPath = (path: Path) => path.map((s, i) => (typeof s === 'number' ? `[${s}]` : `${i ? '.' : ''}${s}`)).join('');

let seq = 0;
const next = () => ++seq;

/** A plausible valid string for a field, by its name, format and description. */
function sampleString(name: string, s: Schema): string {
  const n = next();
  const description = String(s.description ?? '');
  if (s.format === 'date-time') return '2030-01-07T10:00:00Z';
  if (s.format === 'date' || /(^|[a-z])(date|Date)$/.test(name)) return '2030-01-07';
  if (/email|recipients/i.test(name)) return `sweep.${process.pid}.${n}@example.test`;
  if (/phone/i.test(name)) return `+1555010${String(1000 + (n % 9000)).padStart(4, '0')}`;
  if (/(^id$|Id$|Ids$)/.test(name)) return uuidv7();
  if (/Time$/.test(name)) return '10:00';
  if (/url/i.test(name)) return 'https://example.test/sweep';
  if (/domain/i.test(name)) return `sweep${n}.example.test`;
  if (name === 'country') return 'DE';
  if (name === 'currency') return 'EUR';
  if (name === 'timeZone') return 'Europe/Berlin';
  if (name === 'code') return '123456';
  if (name === 'slug') return `sweep-${n}`;
  if (name === 'key') return `sweep${n}`;
  if (name === 'location') return 'header';
  if (name === 'industry') return 'salon';
  if (name === 'fieldType') return 'text';
  if (name === 'type') return /paragraph/.test(description) ? 'paragraph' : /post type/i.test(description) ? 'post' : 'text';
  return `Sweep ${n}`;
}

/** A plausible valid integer: within the schema's bounds, else by the field's name. */
function sampleInteger(name: string, s: Schema): number {
  if (typeof s.minimum === 'number') return s.minimum;
  if (/duration|minutes/i.test(name)) return 60;
  if (/hours/i.test(name)) return 24;
  if (/percent/i.test(name)) return 50;
  if (name === 'limit') return 10;
  if (name === 'offset' || name === 'index') return 0;
  return 1;
}

/** A valid value for a field of this schema (only required properties of objects). */
export function sampleValue(name: string, schema: Schema | undefined): unknown {
  const s = unwrap(schema);
  switch (kindOf(s)) {
    case 'enum':
      return s.enum[0];
    case 'integer':
      return sampleInteger(name, s);
    case 'number':
      return 1;
    case 'decimal':
      return '1.00';
    case 'boolean':
      return true;
    case 'object':
      return validObject(s);
    case 'record':
      return {};
    case 'array':
      return [sampleValue(name.replace(/s$/, ''), s.items)];
    case 'string':
      return sampleString(name, s);
    default:
      return 'sweep';
  }
}

/** An object with a valid value for each required property. */
export function validObject(schema: Schema | undefined): Record<string, unknown> {
  const s = unwrap(schema);
  const properties: Record<string, Schema> = s.properties ?? {};
  const required: string[] = s.required ?? [];
  return Object.fromEntries(required.filter((name) => properties[name]).map((name) => [name, sampleValue(name, properties[name])]));
}

/** The schema of the value at `path` inside an object schema. */
export function schemaAt(schema: Schema, path: Path): Schema | undefined {
  let at: Schema | undefined = schema;
  for (const segment of path) {
    const s = unwrap(at);
    at = typeof segment === 'number' ? s.items : s.properties?.[segment];
    if (!at) return undefined;
  }
  return at;
}

export const REMOVE = Symbol('remove');

/** A copy of `base` with `value` at `path` (or the field removed), containers on the way made valid. */
export function withValue(base: Record<string, unknown>, schema: Schema, path: Path, value: unknown): Record<string, unknown> {
  const root = structuredClone(base);
  let container: any = root;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i];
    if (container[segment] === undefined || container[segment] === null || typeof container[segment] !== 'object') {
      const sub = schemaAt(schema, path.slice(0, i + 1));
      container[segment] = typeof path[i + 1] === 'number' ? [] : kindOf(sub) === 'object' ? validObject(sub) : {};
    }
    container = container[segment];
    const nextSegment = path[i + 1];
    if (typeof nextSegment === 'number' && container[nextSegment] === undefined) {
      const items = schemaAt(schema, path.slice(0, i + 2));
      container[nextSegment] = kindOf(items) === 'object' ? validObject(items) : sampleValue(String(segment), items);
    }
  }
  const last = path[path.length - 1];
  if (value === REMOVE) {
    if (Array.isArray(container)) container.splice(Number(last), 1);
    else delete container[last];
  } else container[last] = value;
  return root;
}

/** JSON text nesting `depth` arrays: `[[[…]]]` (JSON.stringify overflows its stack on 5,000). */
export const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** Stands for the deep value in an object serialised with JSON.stringify, then replaced in the text. */
export const DEEP = '\u0000__deep_nesting__';
export const stringifyDeep = (value: unknown, depth: number) => JSON.stringify(value).replace(JSON.stringify(DEEP), deepJson(depth));

export const HUGE_BODY_STRING = 500_000;
export const NESTING = 5_000;

export type Expectation =
  /** A 4xx naming the field: `details.field` equal to it (or, with prefix, starting with it), and the message starting with `field:`. */
  | { status: 400 | 413 | 415 | '4xx'; field?: string; fieldPrefix?: boolean; fieldOneOf?: string[]; message?: string }
  /** Only the invariants (no 5xx, no leak, the envelope on errors). */
  | { status: 'any' };

export interface FieldCase {
  kind: string;
  label: string;
  path: Path;
  value: unknown;
  expect: Expectation;
  /** The answer must stay small (the rejected value is not echoed). */
  small?: boolean;
}

/** Two wrong-typed values per kind of field. */
function wrongTypes(kind: Kind): { label: string; value: unknown }[] {
  switch (kind) {
    case 'string':
      return [
        { label: 'number 42', value: 42 },
        { label: 'object {"a":1}', value: { a: 1 } },
      ];
    case 'enum':
      return [
        { label: 'unknown value "NOT_A_VALUE"', value: 'NOT_A_VALUE' },
        { label: 'number 7', value: 7 },
      ];
    case 'integer':
      return [
        { label: 'string "abc"', value: 'abc' },
        { label: 'fraction 1.5', value: 1.5 },
      ];
    case 'number':
      return [
        { label: 'string "abc"', value: 'abc' },
        { label: 'boolean true', value: true },
      ];
    case 'decimal':
      return [
        { label: 'boolean true', value: true },
        { label: 'object {"amount":1}', value: { amount: 1 } },
      ];
    case 'boolean':
      return [
        { label: 'string "yes"', value: 'yes' },
        { label: 'number 1', value: 1 },
      ];
    case 'object':
    case 'record':
      return [
        { label: 'string "x"', value: 'x' },
        { label: 'number 42', value: 42 },
      ];
    case 'array':
      return [
        { label: 'string "x"', value: 'x' },
        { label: 'object {"a":1}', value: { a: 1 } },
      ];
    default:
      return [];
  }
}

/**
 * The malformed variants of every field of an object schema, down to `maxDepth` levels (objects
 * and the first item of lists): missing when required, wrong types, control characters, a huge
 * string, deep nesting. `huge` is the length of the huge string.
 */
export function fieldCases(schema: Schema, options: { huge?: number; maxDepth?: number } = {}): FieldCase[] {
  const huge = options.huge ?? HUGE_BODY_STRING;
  const maxDepth = options.maxDepth ?? 2;
  const cases: FieldCase[] = [];
  const walk = (s: Schema, prefix: Path, depth: number) => {
    const properties: Record<string, Schema> = s.properties ?? {};
    const required: string[] = s.required ?? [];
    for (const [name, sub] of Object.entries(properties)) {
      const path = [...prefix, name];
      const field = fieldPath(path);
      const kind = kindOf(sub);
      if (required.includes(name))
        cases.push({ kind: 'missing required field', label: `without ${field}`, path, value: REMOVE, expect: { status: 400, field } });
      for (const wrong of wrongTypes(kind))
        cases.push({ kind: 'wrong type', label: `${field} = ${wrong.label}`, path, value: wrong.value, expect: { status: 400, field } });
      if (kind === 'string' || kind === 'record') {
        // In a free-form object (answers, attributes, block data) the text is one of its values.
        const at = kind === 'record' ? [...path, 'text'] : path;
        const where = fieldPath(at);
        for (const [label, char] of [
          ['NUL', '\u0000'],
          ['ESC', '\u001b'],
        ]) {
          cases.push({
            kind: 'control character',
            label: `${where} with ${label}`,
            path: at,
            value: `a${char}b`,
            expect: { status: 400, field: where, fieldPrefix: kind === 'record' },
          });
        }
        cases.push({
          kind: 'huge string',
          label: `${where} of ${huge.toLocaleString('en')} characters`,
          path: at,
          value: 'x'.repeat(huge),
          expect: { status: 400, field: where, fieldPrefix: kind === 'record' },
          small: true,
        });
      }
      cases.push({ kind: 'deep nesting', label: `${field} nested ${NESTING} levels`, path, value: DEEP, expect: { status: 400, field, fieldPrefix: true } });
      if (depth + 1 >= maxDepth) continue;
      const inner = unwrap(sub);
      if (kind === 'object') walk(inner, path, depth + 1);
      if (kind === 'array') {
        const items = unwrap(inner.items);
        const itemKind = kindOf(items);
        if (itemKind === 'object') walk(items, [...path, 0], depth + 1);
        else {
          const itemPath = [...path, 0];
          const itemField = fieldPath(itemPath);
          for (const wrong of wrongTypes(itemKind).slice(0, 1))
            cases.push({
              kind: 'wrong type',
              label: `${itemField} = ${wrong.label}`,
              path: itemPath,
              value: wrong.value,
              expect: { status: 400, field: itemField },
            });
          if (itemKind === 'string')
            cases.push({
              kind: 'control character',
              label: `${itemField} with NUL`,
              path: itemPath,
              value: 'a\u0000b',
              expect: { status: 400, field: itemField },
            });
        }
      }
    }
  };
  walk(unwrap(schema), [], 0);
  return cases;
}

/** What a client must never see: stack traces, GraphQL internals, type names of the schema. */
export function leakFinder(typeNames: string[]): (text: string) => string[] {
  const patterns: [string, RegExp][] = [
    ['stack frame', /\n\s*at \S|\bat (?:async )?[\w$.<>]+ \([^)]*:\d+:\d+\)|\bat file:\/\//],
    ['source location', /\.(?:ts|js|mjs|cjs):\d+/],
    ['$input', /\$input\b/],
    ['Variable "', /Variable "/],
    ['cannot represent', /\b(?:Int|Float|String|Boolean|ID|\w+) cannot represent/],
    ['GraphQL type syntax', /\b(?:Int|Float|String|Boolean|ID)!|\[(?:Int|Float|String|Boolean|ID)!?\]/],
    ['"is not defined by type"', /is not defined by type/],
    ['Field "…"', /Field "[^"]*"/],
    ['originalError', /originalError/],
    ['INTERNAL', /\bINTERNAL\b/],
    ['SQL', /\b(?:insert into|select .* from|violates .* constraint|duplicate key value)\b/i],
  ];
  // Type names that cannot be ordinary words in a message: inputs, and compound names (BookingPage, DateTimeISO).
  const distinctive = typeNames.filter((n) => !n.startsWith('__') && (/Input$/.test(n) || /^[A-Z][a-z0-9]+[A-Z]/.test(n) || /^[A-Z]{2,}[a-z]/.test(n)));
  if (distinctive.length) patterns.push(['GraphQL type name', new RegExp(`\\b(?:${distinctive.map((n) => n.replace(/[$]/g, '\\$')).join('|')})\\b`)]);
  return (text) =>
    patterns.flatMap(([name, pattern]) => {
      const m = pattern.exec(text);
      return m ? [`${name} (${JSON.stringify(m[0].slice(0, 40))})`] : [];
    });
}

/** Does the field the product named match the expectation? */
export function fieldMatches(expect: Exclude<Expectation, { status: 'any' }>, given: unknown): boolean {
  if (expect.fieldOneOf) return typeof given === 'string' && expect.fieldOneOf.includes(given);
  if (expect.field === undefined) return true;
  if (typeof given !== 'string') return false;
  const want = expect.field.toLowerCase();
  const got = given.toLowerCase();
  return got === want || (!!expect.fieldPrefix && (got.startsWith(`${want}.`) || got.startsWith(`${want}[`)));
}

/** Runs tasks with at most `limit` at a time. */
export async function bounded<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let index = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (index < tasks.length) {
        const i = index++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

/** A short, printable excerpt of an answer. */
export const excerpt = (text: string, length = 220) => {
  const flat = JSON.stringify(text.length > length ? `${text.slice(0, length)}…` : text).slice(1, -1);
  return text.length > length ? `${flat} (${text.length} chars)` : flat;
};

export interface Failure {
  target: string;
  kind: string;
  label: string;
  problems: string[];
  answer: string;
}

/** Failures as a to-do list: counts per kind, then target → case → problems and answer. */
export function report(title: string, failures: Failure[], total: number): string {
  if (!failures.length) return '';
  const byKind = new Map<string, number>();
  for (const f of failures) byKind.set(f.kind, (byKind.get(f.kind) ?? 0) + 1);
  const byTarget = new Map<string, Failure[]>();
  for (const f of failures) byTarget.set(f.target, [...(byTarget.get(f.target) ?? []), f]);
  const lines = [
    `${title}: ${failures.length} of ${total} cases failed in ${byTarget.size} targets`,
    `by kind: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}`,
  ];
  for (const [target, list] of byTarget) {
    lines.push('', target);
    for (const f of list) lines.push(`  [${f.kind}] ${f.label} → ${f.problems.join('; ')} :: ${f.answer}`);
  }
  return lines.join('\n');
}
