import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, http } from '../support/client.ts';
import { bearer, signInCustomer, signupCompany, type Company } from '../support/fixtures.ts';
import {
  DEEP,
  NESTING,
  bounded,
  deepJson,
  excerpt,
  fieldCases,
  fieldMatches,
  kindOf,
  leakFinder,
  report,
  sampleValue,
  stringifyDeep,
  unwrap,
  validObject,
  withValue,
  type Expectation,
  type Failure,
  type Schema,
} from '../support/malformed.ts';
import { mcpClient } from '../support/mcp.ts';
import { operationsOf, type Operation } from '../support/openapi.ts';
import { testServer } from '../support/server.ts';

/**
 * Issue 8, the malformed-input sweep: every REST operation of the OpenAPI document and every MCP
 * tool, called with malformed parameters and bodies generated from their own schemas, answers a
 * 4xx naming the field, never a 5xx, a stack trace or an internal name. All findings are
 * collected and reported at once, grouped by operation, as a to-do list.
 */

const CONCURRENCY = 8;
/** In a URL (path segment, query value): a Node server refuses request heads over 16 KB itself. */
const HUGE_PARAM = 8_000;
const OVERSIZED_BODY = 1_500_000;
const MAX_ERROR_BYTES = 2_048;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** 4xx-class codes of the catalogue (ARCHITECTURE.md, rule 4). */
const CLIENT_CODES = new Set([
  'BAD_USER_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'SLOT_TAKEN',
  'CANCELLATION_NOT_ALLOWED',
  'RATE_LIMITED',
  'PAYMENT_FAILED',
]);

interface RestCase {
  op: Operation;
  kind: string;
  label: string;
  /** Raw (already encoded) path segments by parameter name; a fresh UUIDv7 otherwise. */
  pathValues?: Record<string, string>;
  /** Raw (already encoded) query values; `undefined` leaves a required one out. */
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  /** The request body as sent; with `contentType`, or application/json. */
  body?: string;
  contentType?: string;
  expect: Expectation;
  small?: boolean;
}

/** Every malformed request of one operation, generated from its parameters and body schema. */
function restCases(op: Operation): RestCase[] {
  const cases: RestCase[] = [];
  const add = (kind: string, label: string, request: Partial<RestCase>, expect: Expectation, small = false) =>
    cases.push({ op, kind, label, ...request, expect, small });

  add('baseline', 'valid-looking request (random ids)', {}, { status: 'any' });

  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    add('bad id', `${p.name} = not-a-uuid`, { pathValues: { [p.name]: 'not-a-uuid' } }, { status: '4xx', field: p.name });
    add('control character', `${p.name} = a%00b`, { pathValues: { [p.name]: 'a%00b' } }, { status: 400, field: p.name });
    add('control character', `${p.name} = a%1Bb`, { pathValues: { [p.name]: 'a%1Bb' } }, { status: 400, field: p.name });
    add('huge string', `${p.name} of ${HUGE_PARAM} characters`, { pathValues: { [p.name]: 'x'.repeat(HUGE_PARAM) } }, { status: '4xx', field: p.name }, true);
  }

  for (const p of op.parameters.filter((p) => p.in === 'query')) {
    const kind = kindOf(p.schema);
    if (p.required) add('missing required field', `without ?${p.name}`, { query: { [p.name]: undefined } }, { status: 400, field: p.name });
    const wrong = (label: string, value: string, message?: string) =>
      add('wrong type', `?${p.name}=${label}`, { query: { [p.name]: value } }, { status: 400, field: p.name, message });
    if (kind === 'integer') {
      wrong('abc', 'abc', `${p.name}: must be an integer`);
      wrong('1.5', '1.5', `${p.name}: must be an integer`);
    }
    if (kind === 'number') wrong('abc', 'abc');
    if (kind === 'boolean') wrong('maybe', 'maybe');
    if (kind === 'enum') wrong('NOT_A_VALUE', 'NOT_A_VALUE');
    if (kind === 'string') {
      add('control character', `?${p.name}=a%00b`, { query: { [p.name]: 'a%00b' } }, { status: 400, field: p.name });
      add('control character', `?${p.name}=a%1Bb`, { query: { [p.name]: 'a%1Bb' } }, { status: 400, field: p.name });
      add('huge string', `?${p.name} of ${HUGE_PARAM} characters`, { query: { [p.name]: 'x'.repeat(HUGE_PARAM) } }, { status: 400, field: p.name }, true);
    }
  }
  // The query string is the input of a read only; a write's is its body.
  if (!WRITE_METHODS.has(op.method)) add('unknown field', '?unknownParam=1', { query: { unknownParam: '1' } }, { status: 400, field: 'unknownParam' });

  for (const p of op.parameters.filter((p) => p.in === 'header' && typeof p.schema?.maxLength === 'number')) {
    const length = p.schema.maxLength + 45;
    add('huge string', `${p.name} header of ${length} characters`, { headers: { [p.name]: 'k'.repeat(length) } }, { status: 400, field: p.name }, true);
  }

  if (WRITE_METHODS.has(op.method)) {
    const schema: Schema = op.body ?? { type: 'object', properties: {}, additionalProperties: false };
    const required: string[] = unwrap(schema).required ?? [];
    const valid = () => validObject(schema);
    add('body', 'non-JSON text as application/json', { body: '{"oops": ' }, { status: 400, field: 'body' });
    for (const [label, raw] of [
      ['JSON array', '[{"a":1}]'],
      ['JSON number', '42'],
      ['JSON string', '"x"'],
      ['JSON null', 'null'],
    ]) {
      add('body', `${label} body`, { body: raw }, { status: 400, field: 'body' });
    }
    if (required.length) add('missing required field', 'empty body', { body: '' }, { status: 400, fieldOneOf: required });
    add('content type', 'JSON sent as text/plain', { body: JSON.stringify(valid()), contentType: 'text/plain' }, { status: 415 });
    add('content type', 'form-urlencoded body', { body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' }, { status: 415 });
    add('deep nesting', `body of arrays nested ${NESTING} levels`, { body: deepJson(NESTING) }, { status: 400, field: 'body', fieldPrefix: true });
    add('deep nesting', `body of objects nested ${NESTING} levels`, { body: `${'{"a":'.repeat(NESTING)}1${'}'.repeat(NESTING)}` }, { status: 400 });
    add(
      'oversized body',
      `body of ${OVERSIZED_BODY.toLocaleString('en')} bytes`,
      { body: JSON.stringify({ ...valid(), padding: 'x'.repeat(OVERSIZED_BODY) }) },
      { status: 413 },
      true,
    );
    add('unknown field', 'unknownField in the body', { body: JSON.stringify({ ...valid(), unknownField: 1 }) }, { status: 400, field: 'unknownField' });
    for (const c of fieldCases(schema)) {
      const value = withValue(valid(), schema, c.path, c.value);
      add(c.kind, c.label, { body: c.value === DEEP ? stringifyDeep(value, NESTING) : JSON.stringify(value) }, c.expect, c.small);
    }
  }
  return cases;
}

/** Problems common to REST answers and MCP error results: the expected 4xx naming the field. */
function expectationProblems(expect: Expectation, status: number, error: any): string[] {
  if (expect.status === 'any') return [];
  const problems: string[] = [];
  const statusOk = expect.status === '4xx' ? status >= 400 && status < 500 : status === expect.status;
  if (!statusOk && status < 500) problems.push(`status ${status}, want ${expect.status}`);
  if (status === 400 && error && typeof error === 'object') {
    const field = error.details?.field;
    if (typeof field !== 'string' || !field) problems.push('no details.field');
    else if (!fieldMatches(expect, field))
      problems.push(
        `details.field ${JSON.stringify(field)}, want ${JSON.stringify(expect.fieldOneOf?.join(' | ') ?? expect.field)}${expect.fieldPrefix ? '…' : ''}`,
      );
    else if (typeof error.message === 'string' && !error.message.startsWith(`${field}:`)) problems.push(`message does not start with "${field}:"`);
    if (expect.message && error.message !== expect.message) problems.push(`message ${JSON.stringify(error.message)}, want ${JSON.stringify(expect.message)}`);
  }
  return problems;
}

/**
 * How long each request of the sweeps took, printed (not asserted: machines differ) so a run shows
 * its slowest; nothing on the request path waits (no polling), and a request that did stood out
 * at 5 s.
 */
const durations: { what: string; ms: number }[] = [];

afterAll(() => {
  const slowest = durations.sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`malformed-input sweep: ${durations.length} requests, slowest ${slowest.map((d) => `${Math.round(d.ms)} ms (${d.what})`).join(', ')}`);
});

describe('malformed-input sweep (issue 8)', () => {
  let base: string;
  let company: Company;
  let customerToken: string;
  let leaks: (text: string) => string[];
  const ownCustomers = new Map<string, Promise<string>>();

  beforeAll(async () => {
    base = (await testServer()).url;
    company = await signupCompany('Malformed Sweep');
    customerToken = (await signInCustomer(company.companyId)).token;
    // Internal names: the type names of the API schema (introspection) and of the supergraph file.
    const introspected = await graphql<{ __schema: { types: { name: string }[] } }>('{ __schema { types { name } } }');
    const fromSchema = introspected.body.data?.__schema.types.map((t) => t.name) ?? [];
    const supergraph = readFileSync(join(import.meta.dirname, '../../schema/supergraph.graphql'), 'utf8');
    const fromFile = [...supergraph.matchAll(/^(?:type|input|enum|scalar|interface|union)\s+(\w+)/gm)].map((m) => m[1]);
    leaks = leakFinder([...new Set([...fromSchema, ...fromFile])]);
  });

  /** The credential an operation's OpenAPI security asks for. */
  async function credentials(op: Operation): Promise<Record<string, string>> {
    const alternatives = op.security.map((s) => Object.keys(s));
    const tenant = { 'x-company-id': company.companyId };
    if (alternatives.some((a) => a.includes('apiKey'))) return bearer(company.apiKey);
    if (alternatives.length && alternatives.every((a) => a.includes('customerToken'))) {
      // Ending or rotating a session gets a customer of its own, so the shared token stays valid.
      if (/\/(logout|refresh)$/.test(op.path)) {
        if (!ownCustomers.has(op.id))
          ownCustomers.set(
            op.id,
            signInCustomer(company.companyId).then((c) => c.token),
          );
        return { ...tenant, ...bearer(await ownCustomers.get(op.id)!) };
      }
      return { ...tenant, ...bearer(customerToken) };
    }
    if (alternatives.some((a) => a.includes('companyId'))) return tenant;
    return {};
  }

  async function runRest(c: RestCase, index: number): Promise<Failure | undefined> {
    const { op } = c;
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => c.pathValues?.[name] ?? uuidv7());
    const query: Record<string, string | undefined> = {};
    for (const p of op.parameters.filter((p) => p.in === 'query' && p.required)) query[p.name] = encodeURIComponent(String(sampleValue(p.name, p.schema)));
    Object.assign(query, c.query);
    const search = Object.entries(query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    // Every other request names its own request id; the answer must carry one either way.
    const requestId = index % 2 === 0 ? `sweep-${uuidv7()}` : undefined;
    const headers: Record<string, string> = { ...(await credentials(op)), ...(requestId ? { 'x-request-id': requestId } : {}), ...c.headers };
    // A write whose case is not about the body sends a valid one, so only the case's input is wrong.
    const body = c.body ?? (WRITE_METHODS.has(op.method) ? JSON.stringify(validObject(op.body)) : undefined);
    if (body !== undefined) headers['content-type'] = c.contentType ?? 'application/json';
    const target = `${op.id}`;
    const fail = (problems: string[], answer: string): Failure | undefined =>
      problems.length ? { target, kind: c.kind, label: c.label, problems, answer } : undefined;

    let res: Response;
    let text: string;
    const started = performance.now();
    try {
      res = await fetch(`${base}${path}${search ? `?${search}` : ''}`, { method: op.method, headers, body, signal: AbortSignal.timeout(20_000) });
      text = await res.text();
    } catch (error) {
      return fail([`no answer: ${(error as Error).message}`], '');
    }
    durations.push({ what: `${target} ${c.label}`, ms: performance.now() - started });
    const problems: string[] = [];
    if (res.status >= 500) problems.push(`status ${res.status}`);
    const header = res.headers.get('x-request-id');
    if (!header) problems.push('no X-Request-Id header');
    else if (requestId && header !== requestId) problems.push(`X-Request-Id ${JSON.stringify(header)} is not the one sent`);
    const found = leaks(text);
    if (found.length) problems.push(`leaks ${found.join(', ')}`);
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {}
    const error = json?.error;
    if (res.status >= 400) {
      if (json?.success !== false || typeof error?.code !== 'string' || typeof error?.message !== 'string') problems.push('not the error envelope');
      else {
        if (error.code === 'INTERNAL') problems.push('code INTERNAL');
        if (!error.requestId) problems.push('no error.requestId');
        else if (header && error.requestId !== header) problems.push('error.requestId is not the X-Request-Id');
      }
    }
    problems.push(...expectationProblems(c.expect, res.status, error));
    if (c.small && text.length > MAX_ERROR_BYTES) problems.push(`answer of ${text.length} bytes`);
    return fail(problems, `${res.status} ${excerpt(text)}`);
  }

  it('answers every REST operation of the OpenAPI document with a 4xx naming the field', { timeout: 180_000 }, async () => {
    const doc = await http('/openapi/connect-v6.openapi.json');
    expect(doc.status).toBe(200);
    const operations = operationsOf(doc.body);
    expect(operations.length).toBeGreaterThan(10);
    const cases = operations.flatMap(restCases);
    // Requests that may succeed (and end a session, say) run after the malformed ones.
    cases.sort((a, b) => Number(a.kind === 'baseline') - Number(b.kind === 'baseline'));
    const failures = (
      await bounded(
        CONCURRENCY,
        cases.map((c, i) => () => runRest(c, i)),
      )
    ).filter((f): f is Failure => !!f);
    expect(failures.length, report('REST malformed-input sweep', failures, cases.length)).toBe(0);
  });

  it('answers every MCP tool with malformed arguments by an isError naming the parameter', { timeout: 180_000 }, async () => {
    const client = await mcpClient(company.apiKey);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(10);

    interface ToolCase {
      tool: string;
      kind: string;
      label: string;
      args: Record<string, unknown>;
      deep: boolean;
      expect: Expectation;
      small?: boolean;
    }
    const cases: ToolCase[] = [];
    for (const tool of tools) {
      const schema = tool.inputSchema as Schema;
      cases.push({
        tool: tool.name,
        kind: 'unknown field',
        label: 'unknownParam = 1',
        args: { ...validObject(schema), unknownParam: 1 },
        deep: false,
        expect: { status: 400, field: 'unknownParam' },
      });
      for (const c of fieldCases(schema)) {
        cases.push({
          tool: tool.name,
          kind: c.kind,
          label: c.label,
          args: withValue(validObject(schema), schema, c.path, c.value),
          deep: c.value === DEEP,
          expect: c.expect,
          small: c.small,
        });
      }
    }

    /** The result of a tools/call; a deep value goes as raw JSON-RPC (JSON.stringify cannot write it). */
    async function call(c: ToolCase): Promise<{ isError?: boolean; content?: { type: string; text?: string }[] }> {
      if (!c.deep) return (await client.callTool({ name: c.tool, arguments: c.args })) as any;
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { ...bearer(company.apiKey), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: stringifyDeep({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: c.tool, arguments: c.args } }, NESTING),
        signal: AbortSignal.timeout(20_000),
      });
      const text = await res.text();
      let answer: any;
      try {
        answer = JSON.parse(text);
      } catch {}
      if (res.status !== 200 || !answer?.result) throw new Error(`HTTP ${res.status} ${excerpt(text, 160)}`);
      return answer.result;
    }

    async function runTool(c: ToolCase): Promise<Failure | undefined> {
      const fail = (problems: string[], answer: string): Failure | undefined =>
        problems.length ? { target: `tool ${c.tool}`, kind: c.kind, label: c.label, problems, answer } : undefined;
      let result: Awaited<ReturnType<typeof call>>;
      const started = performance.now();
      try {
        result = await call(c);
      } catch (error) {
        return fail([`transport failure: ${(error as Error).message.slice(0, 200)}`], '');
      }
      durations.push({ what: `tool ${c.tool} ${c.label}`, ms: performance.now() - started });
      const text = result.content?.find((p) => p.type === 'text')?.text ?? '';
      if (!result.isError) return fail(['not an isError result'], excerpt(text));
      const problems: string[] = [];
      const found = leaks(text);
      if (found.length) problems.push(`leaks ${found.join(', ')}`);
      let error: any;
      try {
        error = JSON.parse(text).error;
      } catch {}
      if (typeof error?.code !== 'string' || typeof error?.message !== 'string') problems.push('no { error: { code, message } } in the result');
      else if (!CLIENT_CODES.has(error.code)) problems.push(`code ${error.code}, want BAD_USER_INPUT`);
      else if (error.code !== 'BAD_USER_INPUT' && !error.details?.field)
        problems.push(
          `code ${error.code} without details.field, want BAD_USER_INPUT naming ${c.expect.status === 'any' ? 'the field' : JSON.stringify(c.expect.field ?? c.expect.fieldOneOf)}`,
        );
      else problems.push(...expectationProblems(c.expect, 400, error));
      if (c.small && text.length > MAX_ERROR_BYTES) problems.push(`result of ${text.length} bytes`);
      return fail([...new Set(problems)], excerpt(text));
    }

    const failures = (
      await bounded(
        CONCURRENCY,
        cases.map((c) => () => runTool(c)),
      )
    ).filter((f): f is Failure => !!f);
    expect(failures.length, report('MCP malformed-argument sweep', failures, cases.length)).toBe(0);
  });
});
