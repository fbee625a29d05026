import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayFromNow, setupSalon, type Salon } from '../support/booking.ts';
import { lastCode, uniqueEmail } from '../support/client.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';
import { testServer } from '../support/server.ts';
import { validator } from '../../facades/validate.ts';

/**
 * The rules the MCP tool registry holds every tool to, present and future (issue 10): each one is
 * checked over every tool the server lists, so a new tool that breaks one fails here by name.
 */

type Schema = Record<string, any>;

const TOOLS_DIR = join(import.meta.dirname, '../../facades/mcp/tools');
const operationOf = (name: string) => /^\s*(query|mutation)\s/m.exec(readFileSync(join(TOOLS_DIR, `${name}.graphql`), 'utf8'))?.[1];

/** Every subschema with its path, through properties, items and anyOf. */
function* subschemas(schema: Schema, path = ''): Generator<[Schema, string]> {
  yield [schema, path];
  for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) yield* subschemas(sub, path ? `${path}.${key}` : key);
  if (schema.items && typeof schema.items === 'object') yield* subschemas(schema.items, `${path}[]`);
  for (const [i, branch] of (schema.anyOf ?? []).entries()) yield* subschemas(branch, `${path}|anyOf[${i}]`);
}

/** Each property of each object in a schema (not array items or union branches themselves). */
function* properties(schema: Schema, path = ''): Generator<[Schema, string]> {
  for (const [node, at] of subschemas(schema, path))
    for (const [key, sub] of Object.entries<Schema>(node.properties ?? {})) yield [sub, at ? `${at}.${key}` : key];
}

/**
 * The portability rules of the MCP Inspector CLI's `tools/list` ("Schema portability: …"): its
 * lintToolSchemas (core/json/schemaLint.ts, bundled in @modelcontextprotocol/inspector 2.12.0's
 * clients/cli/build/index.js) reports a bare boolean where a schema belongs, a `type` array, a
 * `$ref` outside the document and a schema that constrains nothing, in input and output schemas.
 */
const CONSTRAINING = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'prefixItems',
  'contains',
  'additionalItems',
  'unevaluatedItems',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentSchemas',
  'dependencies',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
]);
const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
const SUBSCHEMA = [
  'items',
  'contains',
  'not',
  'propertyNames',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
  'contentSchema',
];
const SUBSCHEMA_ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];

function portabilityFindings(node: unknown, path: string, keyword?: string): string[] {
  if (typeof node === 'boolean') return keyword && BOOLEAN_VALUED.has(keyword) ? [] : [`${path}: bare ${node} where a schema belongs`];
  if (!node || typeof node !== 'object' || Array.isArray(node)) return [];
  const schema = node as Schema;
  const found: string[] = [];
  if (Array.isArray(schema.type)) found.push(`${path}: type is an array ${JSON.stringify(schema.type)}`);
  if (typeof schema.$ref === 'string' && !schema.$ref.startsWith('#')) found.push(`${path}: remote $ref ${schema.$ref}`);
  const constrains = Object.keys(schema).some((k) => CONSTRAINING.has(k)) || ('if' in schema && ('then' in schema || 'else' in schema));
  if (!constrains && keyword !== 'not') found.push(`${path}: schema constrains nothing`);
  for (const key of SUBSCHEMA_MAPS)
    for (const [name, sub] of Object.entries(schema[key] ?? {})) found.push(...portabilityFindings(sub, `${path}.${key}.${name}`, key));
  for (const key of SUBSCHEMA_ARRAYS)
    for (const [i, sub] of (schema[key] ?? []).entries()) found.push(...portabilityFindings(sub, `${path}.${key}[${i}]`, key));
  for (const key of SUBSCHEMA) if (key in schema) found.push(...portabilityFindings(schema[key], `${path}.${key}`, key));
  return found;
}

let tools: Tool[];
let byName: Map<string, Tool>;
let schema: GraphQLSchema;

beforeAll(async () => {
  const { app } = await testServer();
  schema = (await app.gateway.getSchema()) as GraphQLSchema;
  const salon = await setupSalon();
  tools = (await salon.merchant.listTools()).tools;
  byName = new Map(tools.map((t) => [t.name, t]));
});

describe('MCP tool registry: rules every tool follows', () => {
  it('lists every tool file', () => {
    const files = readdirSync(TOOLS_DIR)
      .filter((f) => f.endsWith('.graphql'))
      .map((f) => f.replace(/\.graphql$/, ''));
    expect(tools.map((t) => t.name).sort()).toEqual(files.sort());
  });

  it('every parameter, at every depth, has a description', () => {
    const missing = tools.flatMap((t) => [...properties(t.inputSchema as Schema)].filter(([s]) => !s.description?.trim()).map(([, at]) => `${t.name}: ${at}`));
    expect(missing, 'parameters without a description (write it on the GraphQL argument or input field)').toEqual([]);
  });

  it('every GraphQL argument and input field has a description', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (isInputObjectType(type)) for (const f of Object.values(type.getFields())) if (!f.description?.trim()) missing.push(`input ${type.name}.${f.name}`);
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const f of Object.values(type.getFields()))
          for (const a of f.args) if (!a.description?.trim()) missing.push(`argument ${type.name}.${f.name}(${a.name})`);
      }
    }
    expect(missing, 'GraphQL arguments and input fields without a description').toEqual([]);
  });

  it('optional parameters are plain optional properties: no null unions, no type arrays', () => {
    const unions = tools.flatMap((t) =>
      [...subschemas(t.inputSchema as Schema)]
        .filter(([s]) => Array.isArray(s.type) || s.type === 'null' || (s.anyOf ?? []).some((b: Schema) => b.type === 'null'))
        .map(([, at]) => `${t.name}: ${at}`),
    );
    expect(unions).toEqual([]);
  });

  it('input and output schemas pass the MCP Inspector portability rules (0 findings)', () => {
    const findings = tools.flatMap((t) => [
      ...portabilityFindings(t.inputSchema, `${t.name} inputSchema`),
      ...(t.outputSchema ? portabilityFindings(t.outputSchema, `${t.name} outputSchema`) : []),
    ]);
    expect(findings).toEqual([]);
  });

  it('every number carries its bounds; lists take limit 1 to 100 and page from 1', () => {
    const unbounded = tools.flatMap((t) =>
      [...subschemas(t.inputSchema as Schema)]
        .filter(([s]) => (s.type === 'integer' || s.type === 'number') && s.minimum === undefined && s.maximum === undefined)
        .map(([, at]) => `${t.name}: ${at}`),
    );
    expect(unbounded, 'numbers without bounds (state them in the description: "At least 1.", "Between 1 and 100.")').toEqual([]);
    for (const t of tools) {
      const props = (t.inputSchema as Schema).properties;
      if (props.limit) expect(props.limit, `${t.name}.limit`).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
      if (props.page) expect(props.page, `${t.name}.page`).toMatchObject({ type: 'integer', minimum: 1 });
    }
    const service = (byName.get('create_service')!.inputSchema as Schema).properties;
    expect(service.durationMinutes).toMatchObject({ minimum: 5, maximum: 1440 });
    expect(service.capacity).toMatchObject({ minimum: 1, maximum: 1000 });
  });

  it('states and fixed lists are enums, with the values REST already accepts', () => {
    const notEnums = tools.flatMap((t) =>
      [...properties(t.inputSchema as Schema)]
        .filter(([s, at]) => /(^|\.)(status|state|fieldType|loginChannel)$/.test(at) && !s.enum)
        .map(([, at]) => `${t.name}: ${at}`),
    );
    expect(notEnums).toEqual([]);
    const param = (tool: string, name: string) => (byName.get(tool)!.inputSchema as Schema).properties[name];
    expect(param('list_bookings', 'status').enum).toEqual(['CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW']);
    expect(param('update_booking_status', 'status').enum).toEqual(['COMPLETED', 'NO_SHOW']);
    expect(param('update_post', 'status').enum).toEqual(['draft', 'published']);
    expect(param('list_posts', 'status').enum).toEqual(['draft', 'published']);
    expect(param('append_post_block', 'type').enum).toEqual(
      expect.arrayContaining(['paragraph', 'heading', 'image', 'button', 'divider', 'video', 'gallery', 'form']),
    );
    expect(param('create_post_type_field', 'fieldType').enum).toEqual(['text', 'number', 'boolean', 'date', 'image', 'url', 'select', 'richtext']);
  });

  it('free-form block data describes its shape for every block type', () => {
    const props = (byName.get('append_post_block')!.inputSchema as Schema).properties.props;
    for (const type of (byName.get('append_post_block')!.inputSchema as Schema).properties.type.enum as string[])
      expect(props.description, type).toContain(`${type} {`);
    expect(props.description).toMatch(/heading \{ text .*level\? \(1 to 6/);
  });

  it('annotations and titles follow from the operation and the verb', () => {
    for (const t of tools) {
      const query = operationOf(t.name) === 'query';
      expect(t.title, t.name).toMatch(/^[A-Z]/);
      expect(t.annotations?.title, t.name).toBe(t.title);
      expect(t.annotations?.readOnlyHint, t.name).toBe(query);
      expect(typeof t.annotations?.destructiveHint, t.name).toBe('boolean');
      expect(typeof t.annotations?.idempotentHint, t.name).toBe('boolean');
      if (query) expect(t.annotations, t.name).toMatchObject({ destructiveHint: false, idempotentHint: true });
      if (/^(cancel|delete|revoke|refund|remove|void)_/.test(t.name)) expect(t.annotations?.destructiveHint, t.name).toBe(true);
      if (/^(create|append|register|add)_/.test(t.name)) expect(t.annotations, t.name).toMatchObject({ destructiveHint: false, idempotentHint: false });
    }
    expect(byName.get('list_api_keys')!.title).toBe('List API keys');
    expect(byName.get('update_post')!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
  });

  it('the arguments of every tool are checked by a validator its schema builds (built on a first call at run time)', async () => {
    const { app } = await testServer();
    expect(app.mcp.tools.map((t) => t.name).sort()).toEqual(tools.map((t) => t.name).sort());
    for (const t of app.mcp.tools) {
      const check = validator(t.argumentSchema);
      expect(() => check({}), t.name).not.toThrow();
      // Nothing a tool takes is named this: every validator refuses it (or a missing argument first).
      expect(check({ notAnArgument: 1 })?.field, t.name).toMatch(/^\w+$/);
    }
  });

  it('every tool declares an object outputSchema that compiles, listing exactly what its operation selects', () => {
    const ajv = new AjvJsonSchemaValidator();
    for (const t of tools) {
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(() => ajv.getValidator(t.outputSchema!), t.name).not.toThrow();
    }
    const booking = byName.get('cancel_booking')!.outputSchema as Schema;
    expect(booking.required).toEqual(expect.arrayContaining(['id', 'status', 'startsAt', 'price', 'refund']));
    expect(booking.properties.price).toMatchObject({ type: 'object', required: ['amount', 'currency'] });
    expect(booking.properties.staff.anyOf[1]).toEqual({ type: 'null' });
    // A list is a page, { items, pagination }, as every list of the API; a scalar is given as { result }.
    expect(byName.get('get_available_slots')!.outputSchema).toMatchObject({
      required: ['items', 'pagination'],
      properties: { items: { type: 'array' }, pagination: { type: 'object' } },
    });
    expect(byName.get('tag_customers')!.outputSchema).toMatchObject({ required: ['result'], properties: { result: { type: 'integer' } } });
  });
});

describe('MCP tool registry: results match the output schemas', () => {
  let salon: Salon;
  const ajv = new AjvJsonSchemaValidator();
  /** Calls the tool (the client itself checks structuredContent against the listed outputSchema) and checks it again here. */
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const value = await callTool(salon.merchant, name, args);
    const verdict = ajv.getValidator(byName.get(name)!.outputSchema!)(value);
    expect(verdict.valid, `${name}: ${verdict.errorMessage}`).toBe(true);
    return value;
  };

  beforeAll(async () => {
    salon = await setupSalon();
  });

  it('a query of an object, a page and a list; a create, an update and a destructive mutation', async () => {
    expect((await call('get_company')).id).toBe(salon.company.companyId);
    expect((await call('list_services', { limit: 5 })).items).toHaveLength(1);
    const slots = await call('get_available_slots', { serviceId: salon.service.id, startDate: dayFromNow(3), endDate: dayFromNow(3) });
    expect(slots.items.length).toBeGreaterThan(0);
    const booking = await call('create_booking', {
      serviceId: salon.service.id,
      slotTime: slots.items[0].start,
      customer: { name: 'Ada', email: 'ada@example.test' },
    });
    expect((await call('list_bookings', { status: 'CONFIRMED' })).items.map((b: any) => b.id)).toContain(booking.id);
    expect((await call('cancel_booking', { bookingId: booking.id, reason: 'ill' })).status).toBe('CANCELLED');
    await call('update_service', { serviceId: salon.service.id, categoryId: null, description: 'Cut and dry' });
    const post = await call('create_post', { title: 'Shapes', blocks: [{ type: 'heading', data: { text: 'Hi', level: 2 } }] });
    await call('append_post_block', { postId: post.id, type: 'paragraph', props: { text: 'Hello' } });
    expect((await call('get_post', { slug: post.slug })).blocks.map((b: any) => b.type)).toEqual(['heading', 'paragraph']);
    expect((await call('list_api_keys')).items.length).toBeGreaterThan(0);
  });

  it('enum values keep their REST spelling in any case, and bad ones name the field', async () => {
    expect((await call('list_posts', { status: 'PUBLISHED' })).items).toEqual([]);
    const bad = await toolError(salon.merchant, 'append_post_block', { postId: '00000000-0000-7000-8000-000000000000', type: 'marquee', props: {} });
    expect(bad).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'type' } });
    expect(bad.message).toMatch(/^type: must be one of paragraph, /);
    const limit = await toolError(salon.merchant, 'list_bookings', { limit: 101 });
    expect(limit).toMatchObject({ code: 'BAD_USER_INPUT', message: 'limit: must be at most 100', details: { field: 'limit' } });
  });
});

describe('MCP server: getting started without guessing', () => {
  it('initialize answers instructions: how to start, conventions, where the guides are', async () => {
    const client = await mcpClient();
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toMatch(/register_organisation_request/);
    expect(instructions).toMatch(/register_organisation_verify/);
    expect(instructions).toMatch(/Authorization: Bearer svc_mcp_/);
    expect(instructions).toMatch(/ids are UUID strings/);
    expect(instructions).toMatch(/amount a decimal string in major units/);
    expect(instructions).toMatch(/\/llms\.txt/);
    expect(instructions).toMatch(/\/docs/);
  });

  it('publishes RFC 9728 protected-resource metadata, and the 401 points to it', async () => {
    const { url } = await testServer();
    const raw = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer svc_mcp_nope', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(raw.status).toBe(401);
    const header = raw.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(header)?.[1];
    expect(header).toMatch(/^Bearer /);
    expect(metadataUrl).toMatch(/\/\.well-known\/oauth-protected-resource$/);
    // The test server's public URL is its own address.
    const metadata = await fetch(`${url}${new URL(metadataUrl!).pathname}`);
    expect(metadata.status).toBe(200);
    const body = await metadata.json();
    expect(body.resource).toMatch(/\/mcp$/);
    expect(body.bearer_methods_supported).toEqual(['header']);
    expect(body.api_key_instructions).toMatch(/register_organisation_request/);
    expect(body.api_key_signup.mcp_tools).toEqual(['register_organisation_request', 'register_organisation_verify']);
    expect((await fetch(`${url}/.well-known/oauth-protected-resource/mcp`)).status).toBe(200);
  });

  it('a code given as a number is taken as its digits; one it cannot be is refused with a hint to quote it', async () => {
    const client = await mcpClient();
    // A code that starts with 0 cannot be written as a number; ask again until one does not.
    let requestId = '';
    let code = '0';
    for (let attempt = 0; attempt < 8 && code.startsWith('0'); attempt++) {
      const email = uniqueEmail('digits');
      const since = Date.now();
      requestId = (await callTool(client, 'register_organisation_request', { email, organisationName: 'Digits', industry: 'salon', country: 'DE' })).requestId;
      code = await lastCode(email, since);
    }
    expect(code.startsWith('0')).toBe(false);
    const shortened = await toolError(client, 'register_organisation_verify', { requestId, code: 12345 });
    expect(shortened.details?.field).toBe('code');
    expect(shortened.message).toMatch(/double quotes/);
    const fraction = await toolError(client, 'register_organisation_verify', { requestId, code: 1.5 });
    expect(fraction.message).toMatch(/^code: must be a string; put the value in double quotes/);
    const verified = await callTool(client, 'register_organisation_verify', { requestId, code: Number(code) });
    expect(verified.apiKey).toMatch(/^svc_mcp_/);
  });
});
