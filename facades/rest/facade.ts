import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildASTSchema, getNamedType, isInputObjectType, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { filterSchema, pruneSchema } from '@graphql-tools/utils';
import type { GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { createServerAdapter } from '@whatwg-node/server';
import { createSofa, createSofaRouter } from 'sofa-api';
import type { Config } from '../../subgraphs/kernel/config.ts';
import { idempotencyScope, idempotentFetch, requestHash, type IdempotencyRuntime } from '../../subgraphs/kernel/idempotency.ts';
import { forwardedHeaders, forwardedHeadersOf } from '../../router/edge.ts';
import { VIA_HEADER } from '../../subgraphs/kernel/audit.ts';
import { toErrorBody, type GraphQLErrorLike } from '../errors.ts';
import { accessesOf, credentialRefusal } from './credentials.ts';
import type { Access } from '../../subgraphs/kernel/access.ts';
import { headerReader } from '../../subgraphs/kernel/principal.ts';
import { canonicalEnums, type JsonSchema } from '../json-schema.ts';
import { hasControlCharacters, unsafeValue, validator, type Validator } from '../validate.ts';
import { requestSchema } from './request-schema.ts';
import { HIDDEN_FIELDS, ROUTES, type RestRoute } from './manifests/index.ts';
import { buildOpenApi } from './openapi.ts';
import { plainVariables, readOperation, type ReadOperation } from './plain-read.ts';
import { REQUEST_ID_HEADER } from '../../router/edge.ts';

const BASE = '/v6';

export type RestFacade = ReturnType<typeof createRestFacade>;

/** SOFA's error handler: it types the answer as fets's Response, which is the global Response at run time. */
type SofaErrorHandler = NonNullable<Parameters<typeof createSofa>[0]['errorHandler']>;

interface CompiledRoute extends RestRoute {
  pattern: RegExp;
  params: string[];
  /** The root field takes `input: SomeInput`: a flat JSON body is that input. */
  wrapsInput: boolean;
  otherArgs: Set<string>;
  /** The query parameters or flat body the route takes (request-schema.ts), and its checker. */
  request: JsonSchema;
  check: Validator;
  /** What its root field requires of the caller, as declared on it (kernel/access.ts). */
  access: Access[];
}

/** An error in the envelope; a wait the error knows (`retryAfterSeconds`) also goes in `Retry-After`. */
const envelopeError = (status: number, code: string, message: string, details?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  Response.json(
    { success: false, error: { code, message, ...(details ? { details } : {}) } },
    { status, headers: typeof details?.retryAfterSeconds === 'number' ? { ...headers, 'retry-after': String(details.retryAfterSeconds) } : headers },
  );

/**
 * What REST serves of the API schema: the manifest's root fields, without the hidden fields, and
 * the types they reach. Two copies of the whole schema (filterSchema, pruneSchema): ~45 ms of a
 * start, so a built start reads the SDL `npm run build` printed of it (serveBuiltRestSchema).
 */
export function restSchemaOf(apiSchema: GraphQLSchema): GraphQLSchema {
  const allowed = new Set<string>(ROUTES.map((r) => r.field));
  return pruneSchema(
    filterSchema({
      schema: apiSchema,
      rootFieldFilter: (op, name) => allowed.has(`${op}.${name}`),
      fieldFilter: (type, field) => !HIDDEN_FIELDS.has(`${type}.${field}`),
    }),
  );
}

/**
 * The REST schema's SDL as the build printed it from the supergraph it checked, parsed (scripts/
 * snapshot.ts, dist/rest-schema.json: read as JSON, ~2 ms of a start, where parsing the 52 KB of SDL
 * was ~8), set by the built entry points; unset from source. The schema is only read here (SOFA's
 * and the plain path's operations, the request schemas, OpenAPI), never executed, so its SDL is all
 * of it (test/platform/startup.test.ts checks it is the same schema).
 */
let builtRestSchema: string | undefined;

export function serveBuiltRestSchema(file: string | undefined): void {
  builtRestSchema = file;
}

/**
 * REST under /v6: SOFA over the gateway's schema, restricted to the manifest's root fields, with
 * the `{ success, data }` envelope, catalogue status codes, flat JSON bodies and, on POST, the
 * Idempotency-Key.
 */
export function createRestFacade(
  gateway: GatewayRuntime,
  apiSchema: GraphQLSchema,
  config: Config,
  runtime: IdempotencyRuntime,
  toolPaths: Record<string, Record<string, JsonSchema>> = {},
) {
  const schema = builtRestSchema ? buildASTSchema(JSON.parse(readFileSync(builtRestSchema, 'utf8')), { assumeValidSDL: true }) : restSchemaOf(apiSchema);
  const routes = ROUTES.map((r) => compile(r, schema));

  const sofaConfig = createSofa({
    schema,
    basePath: BASE,
    depthLimit: 2,
    routes: Object.fromEntries(ROUTES.map((r) => [r.field, { method: r.method, path: r.path, responseStatus: r.status ?? 200 }])),
    openAPI: { endpoint: false },
    swaggerUI: { endpoint: false },
    async execute({ document, variableValues, operationName, contextValue }) {
      const { request } = contextValue as { request: Request };
      return runOperation(
        document,
        (variableValues ?? {}) as Record<string, unknown>,
        operationName ?? undefined,
        forwardedHeaders(request),
        `${request.method} ${new URL(request.url).pathname}`,
      );
    },
    errorHandler: errorAnswer as SofaErrorHandler,
  });
  // SOFA's router (every route's operation and OpenAPI schemas, ~0.1 s) is built when a request first
  // needs it: a write, or a read the plain path leaves to it.
  let sofa: ReturnType<typeof createSofaRouter> | undefined;

  /**
   * A route's operation runs in-process through the gateway's pipeline (its context, every plugin's
   * execution hooks, the plan or the fast path), with only the headers a subgraph may see
   * (`forwarded`) and the route (`GET /v6/…`), which the audit log names as the way a write came.
   */
  async function runOperation(
    document: DocumentNode,
    variables: Record<string, unknown>,
    operationName: string | undefined,
    forwarded: Record<string, string>,
    route: string,
  ): Promise<ExecutionResult> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(forwarded)) if (value) headers[name] = value;
    headers[VIA_HEADER] = `rest ${route}`;
    const request = new Request('http://router.internal/graphql', { method: 'POST', headers });
    const { execute, contextFactory, schema: gatewaySchema } = gateway.getEnveloped({ request });
    return execute({
      schema: gatewaySchema,
      document,
      variableValues: variables,
      operationName,
      contextValue: await contextFactory(),
    }) as Promise<ExecutionResult>;
  }

  /** GraphQL errors as the envelope's error: the first one's code and status, the others in its details. */
  function errorAnswer(errors: readonly unknown[]): Response {
    const mapped = errors.map((e) => {
      const error = e as GraphQLErrorLike;
      return toErrorBody(error, error?.extensions?.http?.status);
    });
    const first = mapped[0] ?? toErrorBody({ message: 'Unknown error' });
    const details = mapped.length > 1 ? { ...first.body.details, errors: mapped.slice(1).map((m) => m.body) } : first.body.details;
    return envelopeError(first.status, first.body.code, first.body.message, details);
  }

  /** The GET routes' operations as SOFA builds them, each when first used. */
  const readOperations = new Map<CompiledRoute, ReadOperation>();

  /**
   * A GET route answered without SOFA (plain-read.ts says when): the same checks, the same
   * operation with the same variables, run the same way, its data or errors answered as SOFA's
   * handler and `respond` below answer them. False when not taken: nothing has been written.
   */
  async function plainRead(req: IncomingMessage & { body?: Buffer }, res: ServerResponse): Promise<boolean> {
    if (req.method !== 'GET') return false;
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const route = routes.find((r) => r.method === 'GET' && r.pattern.test(url.pathname));
    if (!route) return false;
    const segments = route.pattern.exec(url.pathname)!.slice(1);
    const forwarded = forwardedHeadersOf((name) => req.headers[name] as string | undefined);
    // A refused request is the other path's to word: the caller first, then its input.
    if ((await authenticate(route, forwarded)) || checkPath(route, segments)) return false;
    const checked = checkQuery(route, url);
    if (checked instanceof Response) return false;
    let operation = readOperations.get(route);
    if (!operation) readOperations.set(route, (operation = readOperation(schema, sofaConfig, route.field.slice('Query.'.length))));
    const pathParams = Object.fromEntries(route.params.map((name, i) => [name, segments[i]]));
    const variables = plainVariables(req, url.pathname, operation, pathParams, checked.url.searchParams, schema);
    if (!variables) return false;
    let answer: Response | undefined;
    let body: string | undefined;
    try {
      const result = await runOperation(operation.document, variables, operation.operationName, forwarded, `GET ${url.pathname}`);
      if (result.errors) answer = errorAnswer(result.errors);
      // One JSON.stringify of the envelope: splicing the data's JSON into a text made a string that
      // was copied whole again to be measured and written.
      else body = JSON.stringify({ success: true, data: (result.data as Record<string, unknown> | null | undefined)?.[operation.fieldName] ?? null });
    } catch (error) {
      answer = errorAnswer([error]);
    }
    if (answer) {
      const requestId = req.headers[REQUEST_ID_HEADER];
      answer = await withRequestId(answer, typeof requestId === 'string' ? requestId : null);
      body = await answer.text();
    }
    const headers = answer ? Object.fromEntries(answer.headers) : { 'content-type': 'application/json; charset=utf-8' };
    res.writeHead(answer?.status ?? route.status ?? 200, { ...headers, 'content-length': Buffer.byteLength(body!) });
    res.end(body);
    stats.plainReads++;
    return true;
  }
  /** How many GET requests the plain path answered, for the tests to tell the paths apart. */
  const stats = { plainReads: 0 };

  // Built when first asked for, not at every start (~90 ms of it).
  let openApi: ReturnType<typeof buildOpenApi> | undefined;
  const openApiDocument = () => (openApi ??= buildOpenApi(schema, routes, config, toolPaths));

  const respondTo = async (request: Request) => withRequestId(await answer(request), request.headers.get(REQUEST_ID_HEADER));
  const handler = createServerAdapter(respondTo);

  /**
   * The refusal of a caller without the credential the route's root field needs (credentials.ts),
   * in the envelope; undefined when the caller may go on. Called before anything reads the
   * request's inputs, so a caller without one learns nothing of them. `forwarded`: the headers a
   * subgraph resolves the principal from (router/edge.ts forwardedHeaders).
   */
  async function authenticate(route: CompiledRoute, forwarded: Record<string, string>): Promise<Response | undefined> {
    const refused = await credentialRefusal(runtime.db, config.jwtSecret, headerReader(forwarded), route.access);
    return refused && envelopeError(refused.status, refused.body.code, refused.body.message, refused.body.details);
  }

  async function answer(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/openapi/connect-v6.openapi.yaml')
      return new Response(openApiDocument().yaml, { headers: { 'content-type': 'application/yaml; charset=utf-8' } });
    if (url.pathname === '/openapi/connect-v6.openapi.json') return Response.json(openApiDocument().document);
    const route = routes.find((r) => r.method === request.method && r.pattern.test(url.pathname));
    if (!route) {
      const allowed = [...new Set(routes.filter((r) => r.pattern.test(url.pathname)).map((r) => r.method))];
      return allowed.length
        ? envelopeError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not supported on ${url.pathname}; use ${allowed.join(' or ')}`, undefined, {
            allow: allowed.join(', '),
          })
        : envelopeError(404, 'NOT_FOUND', `No route ${request.method} ${url.pathname}`);
    }
    // Who asks first: a caller without the credential the route needs learns nothing of its inputs.
    const unauthenticated = await authenticate(route, forwardedHeaders(request));
    if (unauthenticated) return unauthenticated;
    // Everything the client sent is checked before anything acts on it, idempotency included.
    const checked = await checkRequest(request, route, url);
    if (checked instanceof Response) return checked;
    const key = request.headers.get('idempotency-key');
    if (request.method !== 'POST' || key === null) return respond(request, checked);
    const fingerprint = requestHash(request.method, url.pathname + url.search, checked.body);
    return idempotentFetch(runtime, { scope: idempotencyScope(forwardedHeaders(request)), key, fingerprint }, () => respond(request, checked)).catch(
      (error) => {
        const { status, body } = toErrorBody(error);
        if (status >= 500) console.error('[rest] idempotency', error);
        return envelopeError(status, body.code, body.message, body.details);
      },
    );
  }

  /** SOFA answers the checked request; a success is wrapped in the envelope. */
  async function respond(request: Request, checked: CheckedRequest): Promise<Response> {
    const headers = new Headers(request.headers);
    headers.delete('content-length');
    if (checked.variables) headers.set('content-type', 'application/json');
    const forward = new Request(checked.url, { method: request.method, headers, body: checked.variables ? JSON.stringify(checked.variables) : undefined });
    const res = await (sofa ??= createSofaRouter(sofaConfig)).fetch(forward);
    if (!res) return envelopeError(404, 'NOT_FOUND', `No route ${request.method} ${checked.url.pathname}`);
    if (!res.ok) return res;
    // SOFA's answer is already JSON: put it in the envelope as it is rather than parse and print it again.
    const text = await res.text();
    return new Response(`{"success":true,"data":${text || 'null'}}`, { status: res.status, headers: { 'content-type': 'application/json; charset=utf-8' } });
  }

  // `fetch` answers a Request in process (the legacy routes run their v6 successors through it).
  return Object.assign(async (req: IncomingMessage, res: ServerResponse) => (await plainRead(req, res)) || handler(req, res), { fetch: respondTo, stats });
}

/** An error answer names the request's id (router/edge.ts), for the client to quote when reporting it. */
async function withRequestId(res: Response, requestId: string | null): Promise<Response> {
  if (res.ok || !requestId || !res.headers.get('content-type')?.includes('json')) return res;
  const text = await res.text();
  let body: { error?: Record<string, unknown> } | undefined;
  try {
    body = JSON.parse(text);
  } catch {}
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  if (!body?.error) return new Response(text, { status: res.status, headers });
  return new Response(JSON.stringify({ ...body, error: { ...body.error, requestId } }), { status: res.status, headers });
}

function compile(route: RestRoute, schema: GraphQLSchema): CompiledRoute {
  const params: string[] = [];
  const pattern = new RegExp(
    `^${BASE}${route.path.replace(/:([A-Za-z]+)/g, (_, name) => {
      params.push(name);
      return '([^/]+)';
    })}/?$`,
  );
  const [op, name] = route.field.split('.');
  const field = (op === 'Query' ? schema.getQueryType() : schema.getMutationType())?.getFields()[name];
  if (!field) throw new Error(`REST route ${route.method} ${route.path}: no root field ${route.field}`);
  const input = field.args.find((a) => a.name === 'input');
  const request = requestSchema({ method: route.method, params }, field);
  return {
    ...route,
    pattern,
    params,
    wrapsInput: !!input && isInputObjectType(getNamedType(input.type)),
    otherArgs: new Set(field.args.map((a) => a.name).filter((n) => n !== 'input')),
    request,
    check: validator(request, 'body'),
    access: accessesOf([route.field]),
  };
}

/** An id, slug, search or filter in a URL: ids and slugs are short, and a search longer than this finds nothing. */
export const MAX_URL_VALUE_LENGTH = 1_000;

const badInput = (field: string, problem: string) => envelopeError(400, 'BAD_USER_INPUT', `${field}: ${problem}`, { field });

interface CheckedRequest {
  /** Where SOFA reads the path and query parameters (enum values in the schema's spelling). */
  url: URL;
  /** The GraphQL variables of a body route. */
  variables?: Record<string, unknown>;
  /** The JSON body as sent, for the idempotency fingerprint. */
  body?: unknown;
}

/**
 * The path, query and body of a request checked against the route's request schema, in REST words:
 * `limit: must be an integer`, `email: is required`, `foo: is not a known field`.
 */
async function checkRequest(request: Request, route: CompiledRoute, url: URL): Promise<CheckedRequest | Response> {
  const refused = checkPath(route, route.pattern.exec(url.pathname)!.slice(1));
  if (refused) return refused;
  if (request.method === 'GET' || request.method === 'DELETE') return checkQuery(route, url);
  return checkBody(await request.text(), route, url);
}

/** The path parameters (the route's pattern's groups), refused when one is not a value a URL should carry. */
function checkPath(route: CompiledRoute, segments: string[]): Response | undefined {
  for (const [i, name] of route.params.entries()) {
    let value: string;
    try {
      value = decodeURIComponent(segments[i]);
    } catch {
      return badInput(name, 'is not validly encoded');
    }
    if (hasControlCharacters(value)) return badInput(name, 'must not contain control characters');
    if (value.length > MAX_URL_VALUE_LENGTH) return badInput(name, `must be at most ${MAX_URL_VALUE_LENGTH} characters`);
  }
  return undefined;
}

function checkQuery(route: CompiledRoute, url: URL): CheckedRequest | Response {
  const properties = route.request.properties as Record<string, JsonSchema>;
  const values: Record<string, unknown> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const schema = properties[name];
    if (!schema) return badInput(name, 'is not a known query parameter');
    const given = url.searchParams.getAll(name);
    if (given.some(hasControlCharacters)) return badInput(name, 'must not contain control characters');
    if (given.some((v) => v.length > MAX_URL_VALUE_LENGTH)) return badInput(name, `must be at most ${MAX_URL_VALUE_LENGTH} characters`);
    values[name] = schema.type === 'array' ? given.map((v) => fromQuery(schema.items as JsonSchema, v)) : fromQuery(schema, given[given.length - 1]);
  }
  const canonical = canonicalEnums(route.request, values) as Record<string, unknown>;
  const problem = route.check(canonical);
  if (problem) return badInput(problem.field, problem.problem);
  // SOFA reads the parameters from the URL again: give it the schema's spelling of enum values.
  const target = new URL(url);
  for (const [name, value] of Object.entries(canonical)) {
    if (value === values[name] || (Array.isArray(value) && (value as unknown[]).every((v, i) => v === (values[name] as unknown[])[i]))) continue;
    target.searchParams.delete(name);
    for (const v of Array.isArray(value) ? value : [value]) target.searchParams.append(name, String(v));
  }
  return { url: target };
}

/** A query string value as the type its schema wants, or as given for validation to refuse it. */
export function fromQuery(schema: JsonSchema | undefined, value: string): unknown {
  switch (schema?.type) {
    case 'integer':
      return /^-?\d+$/.test(value) ? Number(value) : value;
    case 'number':
      return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    default:
      return value;
  }
}

function checkBody(text: string, route: CompiledRoute, url: URL): CheckedRequest | Response {
  let body: unknown = {};
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      return badInput('body', 'must be valid JSON');
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return badInput('body', 'must be a JSON object');
  // A path parameter repeated in the body is the path's: the body's copy is dropped.
  const fields = Object.fromEntries(Object.entries(body).filter(([key]) => !route.params.includes(key)));
  const canonical = canonicalEnums(route.request, fields) as Record<string, unknown>;
  // The schema first: it names a typed field's own bound. Neither walk goes deeper than the schema or MAX_JSON_DEPTH.
  const problem = route.check(canonical) ?? unsafeValue(body);
  if (problem) return badInput(problem.field, problem.problem);
  const variables: Record<string, unknown> = {};
  if (route.wrapsInput) {
    const input: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(canonical)) (route.otherArgs.has(key) ? variables : input)[key] = value;
    variables.input = input;
  } else Object.assign(variables, canonical);
  return { url, variables, body };
}
