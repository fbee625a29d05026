/**
 * Merchant REST, one route per MCP tool (manifests/merchant-tools.ts): the route runs the tool
 * itself (facades/mcp/server.ts `invoke`), so REST and MCP share one registry, one argument check
 * and one execution, and cannot drift. Path segments and query parameters are the tool's
 * parameters by name, read as the tool's schema types them (numbers, booleans, lists as repeated
 * or comma-separated values); a write's body is the flat JSON of the other parameters; an
 * `Idempotency-Key` header is the tool's `idempotencyKey`. They are read only after the tool's
 * caller check has admitted the caller (`invoke`), so a caller without a key learns nothing of them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonSchema } from '../json-schema.ts';
import { IDEMPOTENCY_ARG, type ToolDefinition } from '../mcp/registry.ts';
import type { RouteArguments } from '../mcp/server.ts';
import { fromQuery, MAX_URL_VALUE_LENGTH } from './facade.ts';
import { TOOL_ROUTES } from './manifests/merchant-tools.ts';

export interface ToolRoute {
  tool: ToolDefinition;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under /v6, with `{param}` segments. */
  path: string;
  /** 201 for a creation, else 200. */
  status: 200 | 201;
  params: string[];
  pattern: RegExp;
}

type Invoke = (req: IncomingMessage, name: string, args: RouteArguments) => Promise<{ status: number; body: unknown }>;

export function toolRoutes(tools: ToolDefinition[]): ToolRoute[] {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return Object.entries(TOOL_ROUTES).map(([name, spec]) => {
    const tool = byName.get(name);
    if (!tool) throw new Error(`merchant-tools.ts: no MCP tool ${name}`);
    const [method, path] = spec.split(' ') as [ToolRoute['method'], string];
    const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
    for (const p of params) if (!properties[p]) throw new Error(`merchant-tools.ts: ${name} has no parameter ${p}`);
    const pattern = new RegExp(`^/v6${path.replace(/\{\w+\}/g, '([^/]+)')}/?$`);
    return { tool, method, path: `/v6${path}`, status: method === 'POST' && name.startsWith('create_') ? 201 : 200, params, pattern };
  });
}

const bodyless = (method: string) => method === 'GET' || method === 'DELETE';

/** Text values of the query or path as the parameter's schema types them (a list: repeated or comma-separated). */
function typed(schema: JsonSchema | undefined, values: string[]): unknown {
  if (schema?.type === 'array')
    return values
      .flatMap((v) => v.split(','))
      .filter((v) => v !== '')
      .map((v) => fromQuery(schema.items as JsonSchema, v));
  return fromQuery(schema, values.at(-1)!);
}

/**
 * The answer; an error names the request's id (router/edge.ts), and the Idempotency-Key by its
 * header's name (the tool calls it `idempotencyKey`).
 */
function send(res: ServerResponse, status: number, body: unknown, req: IncomingMessage) {
  const answer = body as { error?: { message?: unknown; details?: Record<string, unknown> } } | null | undefined;
  if (answer?.error) {
    const requestId = req.headers['x-request-id'];
    const error = { ...answer.error, ...(typeof requestId === 'string' ? { requestId } : {}) };
    if (error.details?.field === IDEMPOTENCY_ARG) {
      error.details = { ...error.details, field: 'Idempotency-Key' };
      error.message = String(error.message).replace(IDEMPOTENCY_ARG, 'Idempotency-Key');
    }
    body = { ...answer, error };
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
const badInput = (field: string, message: string) => ({
  success: false,
  error: { code: 'BAD_USER_INPUT', message: `${field}: ${message}`, details: { field } },
});

/** Answers a request if it is one of the tools' routes (true), else leaves it to the next handler. */
export function createToolRoutes(routes: ToolRoute[], invoke: Invoke) {
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const matching = routes.filter((r) => r.pattern.test(path));
    if (!matching.length) return false;
    const route = matching.find((r) => r.method === req.method);
    // No contract route (SOFA's) shares a path with a tool's, so another method here is a 405.
    if (!route) {
      const allowed = [...new Set(matching.map((r) => r.method))].join(', ');
      res.setHeader('allow', allowed);
      send(res, 405, { success: false, error: { code: 'METHOD_NOT_ALLOWED', message: `${req.method} is not supported on ${path}; use ${allowed}` } }, req);
      return true;
    }
    // Read by the tool's caller check once it has admitted the caller: one without a key learns nothing of the route's inputs.
    const answer = await invoke(req, route.tool.name, () => routeArguments(route, req, path));
    send(res, answer.status === 200 ? route.status : answer.status, answer.body, req);
    return true;
  };
}

/**
 * The tool's arguments from the route's request: the path segments, and the query (GET, DELETE) or
 * the flat JSON body with the Idempotency-Key header; or the refusal of one, naming it.
 */
function routeArguments(route: ToolRoute, req: IncomingMessage, path: string): ReturnType<RouteArguments> {
  const refuse = (field: string, message: string) => ({ refused: { status: 400, body: badInput(field, message) } });
  const properties = (route.tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const args: Record<string, unknown> = {};
  if (bodyless(route.method)) {
    const query = new URL(req.url ?? path, 'http://x').searchParams;
    for (const name of new Set(query.keys())) {
      if (!properties[name] || name === IDEMPOTENCY_ARG)
        return refuse(
          name,
          `is not a parameter of this route; it takes ${
            Object.keys(properties)
              .filter((p) => !route.params.includes(p))
              .join(', ') || 'none'
          }`,
        );
      const given = query.getAll(name);
      if (given.some((v) => v.length > MAX_URL_VALUE_LENGTH)) return refuse(name, `must be at most ${MAX_URL_VALUE_LENGTH} characters`);
      args[name] = typed(properties[name], given);
    }
  } else {
    const raw = (req as { body?: unknown }).body;
    const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
    if (text.trim()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return refuse('body', 'is not valid JSON');
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return refuse('body', 'must be a JSON object of the route’s fields');
      for (const [name, value] of Object.entries(parsed)) {
        if (route.params.includes(name) || name === IDEMPOTENCY_ARG) return refuse(name, 'goes in the path or the Idempotency-Key header, not the body');
        args[name] = value;
      }
    }
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string' && !route.tool.readOnly) args[IDEMPOTENCY_ARG] = key;
  }
  const match = route.pattern.exec(path)!;
  for (const [i, name] of route.params.entries()) {
    let value: string;
    try {
      value = decodeURIComponent(match[i + 1]);
    } catch {
      value = match[i + 1];
    }
    if (value.length > MAX_URL_VALUE_LENGTH) return refuse(name, `must be at most ${MAX_URL_VALUE_LENGTH} characters`);
    args[name] = typed(properties[name], [value]);
  }
  return { args };
}

/** A tool's JSON Schema in OpenAPI 3.0's dialect: `anyOf [X, null]` becomes `nullable`, `const` an enum. */
export function openApi30(schema: JsonSchema): JsonSchema {
  if (!schema || typeof schema !== 'object') return schema;
  const branches = schema.anyOf as JsonSchema[] | undefined;
  if (branches?.some((b) => b.type === 'null')) {
    const rest = branches.filter((b) => b.type !== 'null');
    const { anyOf: _a, ...outer } = schema;
    const inner = rest.length === 1 ? openApi30(rest[0]) : { anyOf: rest.map(openApi30) };
    return { ...inner, ...outer, nullable: true };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if (key === 'const') out.enum = [value];
    else if (key === 'properties') out.properties = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, openApi30(v)]));
    else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) out[key] = openApi30(value as JsonSchema);
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') out[key] = (value as JsonSchema[]).map(openApi30);
    else out[key] = value;
  }
  return out;
}

/** The OpenAPI operations of the tools' routes, by path and method (facades/rest/openapi.ts adds them). */
export function toolOperations(routes: ToolRoute[]): Record<string, Record<string, JsonSchema>> {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const { tool, method } = route;
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
    const required = (tool.inputSchema.required ?? []) as string[];
    const parameters: JsonSchema[] = route.params.map((name) => {
      const { description, ...schema } = openApi30(properties[name]);
      return { name, in: 'path', required: true, schema, ...(description ? { description } : {}) };
    });
    const rest = Object.entries(properties).filter(([name]) => !route.params.includes(name) && name !== IDEMPOTENCY_ARG);
    let requestBody: JsonSchema | undefined;
    if (bodyless(method)) {
      for (const [name, property] of rest) {
        const { description, ...schema } = openApi30(property);
        parameters.push({ name, in: 'query', required: required.includes(name), schema, ...(description ? { description } : {}) });
      }
    } else {
      if (!tool.readOnly) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
      if (rest.length) {
        const bodyRequired = required.filter((r) => !route.params.includes(r));
        requestBody = {
          required: bodyRequired.length > 0,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: Object.fromEntries(rest.map(([n, p]) => [n, openApi30(p)])),
                ...(bodyRequired.length ? { required: bodyRequired } : {}),
                additionalProperties: false,
              },
            },
          },
        };
      }
    }
    const output = tool.wrapped ? (tool.outputSchema.properties as Record<string, JsonSchema>).result : tool.outputSchema;
    const statuses = [400, 401, 403, 404, 429, 500, ...(method === 'GET' ? [] : [409]), ...(method === 'POST' && !tool.readOnly ? [422] : [])].sort();
    const openApiPath = route.path;
    paths[openApiPath] ??= {};
    paths[openApiPath][method.toLowerCase()] = {
      operationId: tool.name,
      summary: `${tool.title} (MCP tool ${tool.name})`,
      description: tool.description,
      tags: ['Merchant'],
      security: [{ apiKey: [] }],
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        [String(route.status)]: {
          description: 'Success',
          content: {
            'application/json': {
              schema: { type: 'object', required: ['success', 'data'], properties: { success: { type: 'boolean', enum: [true] }, data: openApi30(output) } },
            },
          },
        },
        ...Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/E${s}` }])),
      },
    };
  }
  return paths;
}
