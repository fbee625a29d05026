import type { IncomingMessage, ServerResponse } from 'node:http';
import { getNamedType, isInputObjectType, type GraphQLSchema } from 'graphql';
import { filterSchema, pruneSchema } from '@graphql-tools/utils';
import type { GatewayRuntime } from '@graphql-hive/gateway-runtime';
import { createServerAdapter } from '@whatwg-node/server';
import { useSofa } from 'sofa-api';
import type { Config } from '../../subgraphs/kernel/config.ts';
import { idempotencyScope, idempotentFetch, requestHash, type IdempotencyRuntime } from '../../subgraphs/kernel/idempotency.ts';
import { forwardedHeaders } from '../../router/gateway.ts';
import { VIA_HEADER } from '../../subgraphs/kernel/audit.ts';
import { toErrorBody } from '../errors.ts';
import { canonicalEnums, inputSchema, type JsonSchema } from '../json-schema.ts';
import { HIDDEN_FIELDS, ROUTES, type RestRoute } from './manifests/index.ts';
import { buildOpenApi } from './openapi.ts';

const BASE = '/v6';

interface CompiledRoute extends RestRoute {
  pattern: RegExp;
  params: string[];
  /** The root field takes `input: SomeInput`: a flat JSON body is that input. */
  wrapsInput: boolean;
  otherArgs: Set<string>;
  /** The JSON Schema of each argument of the field, to read enum values in any case. */
  args: JsonSchema;
}

/** An error in the envelope; a wait the error knows (`retryAfterSeconds`) also goes in `Retry-After`. */
const envelopeError = (status: number, code: string, message: string, details?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  Response.json(
    { success: false, error: { code, message, ...(details ? { details } : {}) } },
    { status, headers: typeof details?.retryAfterSeconds === 'number' ? { ...headers, 'retry-after': String(details.retryAfterSeconds) } : headers },
  );

/**
 * REST under /v6: SOFA over the gateway's schema, restricted to the manifest's root fields, with
 * the `{ success, data }` envelope, catalogue status codes, flat JSON bodies and, on POST, the
 * Idempotency-Key.
 */
export function createRestFacade(gateway: GatewayRuntime, apiSchema: GraphQLSchema, config: Config, runtime: IdempotencyRuntime) {
  const allowed = new Set<string>(ROUTES.map((r) => r.field));
  const schema = pruneSchema(
    filterSchema({
      schema: apiSchema,
      rootFieldFilter: (op, name) => allowed.has(`${op}.${name}`),
      fieldFilter: (type, field) => !HIDDEN_FIELDS.has(`${type}.${field}`),
    }),
  );
  const routes = ROUTES.map((r) => compile(r, schema));

  const sofa = useSofa({
    schema,
    basePath: BASE,
    depthLimit: 2,
    routes: Object.fromEntries(ROUTES.map((r) => [r.field, { method: r.method, path: r.path, responseStatus: r.status ?? 200 }])),
    openAPI: { endpoint: false },
    swaggerUI: { endpoint: false },
    // Runs in-process through the gateway's own pipeline (parsing, validation, masking, planning),
    // with a request carrying only the headers a subgraph may see.
    async execute({ document, variableValues, operationName, contextValue }) {
      const { request } = contextValue as { request: Request };
      const headers = new Headers();
      for (const [name, value] of Object.entries(forwardedHeaders(request))) if (value) headers.set(name, value);
      // The audit log names the route a write came through.
      headers.set(VIA_HEADER, `rest ${request.method} ${new URL(request.url).pathname}`);
      const { execute, contextFactory, schema: gatewaySchema } = gateway.getEnveloped({ request: new Request('http://router.internal/graphql', { headers }) });
      return execute({ schema: gatewaySchema, document, variableValues, operationName, contextValue: await contextFactory() });
    },
    errorHandler(errors) {
      const mapped = errors.map((e: any) => toErrorBody(e, e?.extensions?.http?.status));
      const first = mapped[0] ?? toErrorBody({ message: 'Unknown error' });
      const details = mapped.length > 1 ? { ...first.body.details, errors: mapped.slice(1).map((m) => m.body) } : first.body.details;
      return envelopeError(first.status, first.body.code, first.body.message, details) as any;
    },
  });

  const openApi = buildOpenApi(schema, routes, config);

  const handler = createServerAdapter(async (request: Request) => {
    const url = new URL(request.url);
    if (url.pathname === '/openapi/connect-v6.openapi.yaml') return new Response(openApi.yaml, { headers: { 'content-type': 'application/yaml; charset=utf-8' } });
    if (url.pathname === '/openapi/connect-v6.openapi.json') return Response.json(openApi.document);
    const route = routes.find((r) => r.method === request.method && r.pattern.test(url.pathname));
    if (!route) {
      const allowed = [...new Set(routes.filter((r) => r.pattern.test(url.pathname)).map((r) => r.method))];
      return allowed.length
        ? envelopeError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not supported on ${url.pathname}; use ${allowed.join(' or ')}`, undefined, { allow: allowed.join(', ') })
        : envelopeError(404, 'NOT_FOUND', `No route ${request.method} ${url.pathname}`);
    }
    const key = request.headers.get('idempotency-key');
    if (request.method !== 'POST' || key === null) return respond(request, route, url);
    // The body is read once: to fingerprint the request, then again from this text to answer it.
    const text = await request.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    const fingerprint = requestHash(request.method, url.pathname + url.search, body);
    const again = new Request(url, { method: request.method, headers: request.headers, body: text });
    return idempotentFetch(runtime, { scope: idempotencyScope(forwardedHeaders(request)), key, fingerprint }, () => respond(again, route, url)).catch((error) => {
      const { status, body } = toErrorBody(error);
      if (status >= 500) console.error('[rest] idempotency', error);
      return envelopeError(status, body.code, body.message, body.details);
    });
  });

  async function respond(request: Request, route: CompiledRoute, url: URL): Promise<Response> {
    const forward = await withFlatBody(request, route, url);
    if (forward instanceof Response) return forward;
    const res = await sofa.fetch(forward);
    if (!res) return envelopeError(404, 'NOT_FOUND', `No route ${request.method} ${url.pathname}`);
    if (!res.ok) return res;
    const text = await res.text();
    return Response.json({ success: true, data: text ? JSON.parse(text) : null }, { status: res.status });
  }

  return (req: IncomingMessage, res: ServerResponse) => handler(req, res);
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
  return {
    ...route,
    pattern,
    params,
    wrapsInput: !!input && isInputObjectType(getNamedType(input.type)),
    otherArgs: new Set(field.args.map((a) => a.name).filter((n) => n !== 'input')),
    args: { type: 'object', properties: Object.fromEntries(field.args.map((a) => [a.name, inputSchema(a.type)])) },
  };
}

/** Checks the JSON body and nests a flat one under `input` where the field takes an input object. */
async function withFlatBody(request: Request, route: CompiledRoute, url: URL): Promise<Request | Response> {
  if (request.method === 'GET' || request.method === 'DELETE') return withCanonicalQuery(request, route, url);
  const text = await request.text();
  let body: unknown = {};
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      return envelopeError(400, 'BAD_USER_INPUT', 'body: must be valid JSON', { field: 'body' });
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return envelopeError(400, 'BAD_USER_INPUT', 'body: must be a JSON object', { field: 'body' });
  const fields = body as Record<string, unknown>;
  let variables: Record<string, unknown> = {};
  if (route.wrapsInput) {
    const input: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) {
      if (route.otherArgs.has(key) || route.params.includes(key)) variables[key] = value;
      else input[key] = value;
    }
    variables.input = input;
  } else {
    // Only the field's own arguments are variables; anything else is ignored like an unknown header.
    for (const [key, value] of Object.entries(fields)) if (route.otherArgs.has(key)) variables[key] = value;
  }
  for (const p of route.params) delete variables[p];
  variables = canonicalEnums(route.args, variables) as Record<string, unknown>;
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return new Request(url, { method: request.method, headers, body: JSON.stringify(variables) });
}

/**
 * Query parameters with enum values in the schema's spelling: states were matched in any case
 * before they became enums (`?status=cancelled`), and still are.
 */
function withCanonicalQuery(request: Request, route: CompiledRoute, url: URL): Request {
  const properties = route.args.properties as Record<string, JsonSchema>;
  const search = new URLSearchParams(url.search);
  let changed = false;
  for (const name of new Set(search.keys())) {
    const schema = properties[name];
    if (!schema) continue;
    const values = search.getAll(name);
    const fixed = (schema.type === 'array' ? canonicalEnums(schema, values) : values.map((v) => canonicalEnums(schema, v))) as string[];
    if (fixed.every((v, i) => v === values[i])) continue;
    search.delete(name);
    for (const v of fixed) search.append(name, v);
    changed = true;
  }
  if (!changed) return request;
  const target = new URL(url);
  target.search = search.toString();
  return new Request(target, { method: request.method, headers: request.headers });
}
