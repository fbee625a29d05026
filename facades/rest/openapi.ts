import type { GraphQLSchema } from 'graphql';
import { stringify } from 'yaml';
import type { Config } from '../../subgraphs/kernel/config.ts';
import { accessOf, type Access } from '../../subgraphs/kernel/access.ts';
import { ERROR_DESCRIPTIONS, ERROR_REASONS, ERROR_STATUS, type ErrorCode } from '../../subgraphs/kernel/errors.ts';
import { KEY_SCHEMA } from '../../subgraphs/kernel/idempotency.ts';
import { outputSchema, type JsonSchema } from '../json-schema.ts';
import type { RestRoute } from './manifests/types.ts';
import { requestSchema } from './request-schema.ts';

interface RouteInfo extends RestRoute {
  params: string[];
  wrapsInput: boolean;
}

/** OpenAPI security of each access level (declared once on the root field, see kernel/access.ts). */
const SECURITY: Record<Access, Record<string, string[]>[]> = {
  none: [],
  public: [{ companyId: [] }, {}],
  optionalCustomer: [{ companyId: [] }, { companyId: [], customerToken: [] }, {}],
  customer: [{ customerToken: [] }],
  magic: [],
  merchant: [{ apiKey: [] }],
};

/** What each of the contract's groups holds (the reference's sections). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  'Member session': 'Customer sign-in with a one-time code or registration, the customer token, refresh and logout.',
  Storefront: 'What a storefront needs before anything else: the tenant behind a domain, its settings.',
  'Service booking': 'Services, staff, available slots, guest and customer bookings, cancel and reschedule.',
  'Content and events': 'Published pages, posts, categories, menus; events and registrations.',
  'Forms, surveys, storefront': 'Surveys and their responses (also by invitation token), contact inquiries.',
  'Shop and commerce': 'Catalog, shipping and payment methods, orders and their payment status.',
  'Loyalty and offers': 'Membership tiers, points, gift offers, redemptions and claims.',
  Merchant: 'Routes for the business itself, with a merchant API key or session.',
  'Organisation signup': 'Creating an organisation and its first API key (the REST fallback of the MCP signup tools).',
};

/**
 * X-Company-Id as a header parameter of every route that reads it, beside the security scheme of
 * the same name: generated clients expose parameters, not always API-key schemes.
 */
const COMPANY_HEADER: JsonSchema = {
  name: 'X-Company-Id',
  in: 'header',
  required: false,
  schema: { type: 'string', format: 'uuid' },
  description: 'The tenant (company id). Needed on public and customer routes unless the request comes through one of the company’s storefront domains.',
};

/** The document's introduction (Markdown; the reference page shows it first): the envelope and how to authenticate. */
function describeApi(base: string): string {
  return `Customer portal, merchant and developer routes. Every answer is an envelope: \`{ success: true, data }\` or \`{ success: false, error: { code, message, details } }\`. Lists carry \`items\` and \`pagination\`.

## Authentication

Each route names the credentials it takes (its security):

- **Tenant** (\`X-Company-Id: <company id>\`, scheme \`companyId\`): public and customer routes act for one company. Send its id in the header, or call through one of the company's storefront domains.
- **Customer token** (\`Authorization: Bearer <token>\`, scheme \`customerToken\`): a customer signs in with a one-time code (\`POST /v6/customer-portal/auth/otp\`, then \`…/auth/otp/verify\` answers \`data.token\`) or registers (\`…/auth/register\`). \`…/auth/refresh\` renews it, \`…/auth/logout\` ends it. See [Customer sign-in](${base}/docs/sign-in.md).
- **Merchant API key** (\`Authorization: Bearer svc_mcp_…\`, scheme \`apiKey\`): the business itself. \`POST /v6/dev/signup\` mails a code, \`POST /v6/dev/verify\` answers the first key with the \`companyId\` and a \`loginUrl\`. More keys: the MCP tool \`create_api_key\`. See [Merchant signup and API keys](${base}/docs/merchant-signup.md).

Every write takes an optional \`Idempotency-Key\` header that makes a retry safe ([Safe retries](${base}/docs/safe-writes.md)). Error codes, reasons and state transitions: [Errors](${base}/docs/errors.md).`;
}

/** The OpenAPI 3.0 document of exactly the manifest's routes, with envelopes and error responses. */
export function buildOpenApi(
  schema: GraphQLSchema,
  routes: RouteInfo[],
  config: Config,
  toolPaths: Record<string, Record<string, JsonSchema>> = {},
): { document: JsonSchema; yaml: string } {
  const components: Record<string, JsonSchema> = {};
  // The merchant tools' routes (tool-routes.ts), then the manifest's.
  const paths: Record<string, Record<string, unknown>> = structuredClone(toolPaths);
  for (const route of routes) {
    const [op, name] = route.field.split('.');
    const field = (op === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name];
    const parameters: JsonSchema[] = route.params.map((p) => ({ name: p, in: 'path', required: true, schema: { type: 'string' } }));
    if (route.method === 'POST') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    if (['public', 'optionalCustomer', 'customer'].includes(accessOf(route.field))) parameters.push({ $ref: '#/components/parameters/CompanyId' });
    let requestBody: JsonSchema | undefined;
    const request = requestSchema(route, field);
    const properties = request.properties as Record<string, JsonSchema>;
    const required = (request.required as string[] | undefined) ?? [];
    if (route.method === 'GET' || route.method === 'DELETE') {
      for (const [name, schema] of Object.entries(properties)) {
        const { description, ...rest } = schema;
        parameters.push({ name, in: 'query', required: required.includes(name), schema: rest, ...(description ? { description } : {}) });
      }
    } else if (Object.keys(properties).length) {
      requestBody = { required: required.length > 0, content: { 'application/json': { schema: request } } };
    }
    const openApiPath = `/v6${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
    paths[openApiPath] ??= {};
    paths[openApiPath][route.method.toLowerCase()] = {
      operationId: name,
      summary: route.summary,
      ...(field.description ? { description: field.description } : {}),
      tags: [route.tag],
      security: SECURITY[accessOf(route.field)],
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        [String(route.status ?? 200)]: {
          description: 'Success',
          ...(route.method === 'POST' ? { headers: { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } } : {}),
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['success', 'data'],
                properties: { success: { type: 'boolean', enum: [true] }, data: outputSchema(field.type, components) },
              },
            },
          },
        },
        ...errorResponses(route),
      },
    };
  }
  components.Error = errorSchema();
  const document = {
    openapi: '3.0.3',
    info: {
      title: 'Connect API v6',
      version: '6.0.0',
      license: { name: 'Proprietary', url: `${config.publicUrl}/` },
      description: describeApi(config.publicUrl),
    },
    servers: [{ url: config.publicUrl }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        companyId: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Company-Id',
          description:
            'The tenant: the company id (`companyId` of the organisation signup). May be left out when the request comes through one of the company’s storefront domains.',
        },
        customerToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A customer token: `data.token` of `POST /v6/customer-portal/auth/otp/verify` (after `POST …/auth/otp` sent the code), of `…/auth/register` or of `…/auth/refresh`. Valid for its own company only; send the tenant too.',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A merchant API key (`svc_mcp_…`): `apiKey` of `POST /v6/dev/verify` after `POST /v6/dev/signup`, or one made with the MCP tool `create_api_key`. A merchant session token (from the signup’s login link) is accepted too.',
        },
      },
      parameters: {
        CompanyId: COMPANY_HEADER,
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: KEY_SCHEMA,
          description:
            'A unique key (e.g. a UUID) that makes a retry safe: for 24 hours the same key with the same request answers the first answer again (status and body, with `Idempotent-Replayed: true`) without running it twice. The same key with a different request is 422 IDEMPOTENCY_KEY_REUSED; while the first is still running, 409 IDEMPOTENCY_KEY_IN_USE. 429 and 5xx answers are not kept, but a write already made is never run again: its retry is 409 CONFLICT with `details.resultId`. Keys belong to the credential and company.',
        },
      },
      headers: {
        IdempotentReplayed: {
          description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      responses: Object.fromEntries(
        [400, 401, 403, 404, 409, 422, 429, 500].map((s) => [
          `E${s}`,
          { description: errorDescription(s), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ]),
      ),
    },
  };
  return { document, yaml: stringify(document, { aliasDuplicateObjects: false }) };
}

function errorResponses(route: RestRoute): Record<string, JsonSchema> {
  const statuses = [400, 404, 429, 500];
  const access = accessOf(route.field);
  if (access !== 'none' && access !== 'magic') statuses.push(401);
  if (access === 'merchant') statuses.push(403);
  if (route.method !== 'GET') statuses.push(409);
  if (route.method === 'POST') statuses.push(422);
  return Object.fromEntries(statuses.sort().map((s) => [String(s), { $ref: `#/components/responses/E${s}` }]));
}

function errorDescription(status: number): string {
  const codes = Object.entries(ERROR_STATUS)
    .filter(([, s]) => s === status)
    .map(([c]) => c);
  const reasons = Object.entries(ERROR_REASONS)
    .filter(([, r]) => ERROR_STATUS[r.code] === status)
    .map(([name]) => name);
  return `Error (${codes.join(', ')}${reasons.length ? `; reasons ${reasons.join(', ')}` : ''})`;
}

/** The error envelope, with every code of the catalogue and every registered reason, each described. */
function errorSchema(): JsonSchema {
  const codes = Object.keys(ERROR_STATUS) as ErrorCode[];
  const reasons = Object.entries(ERROR_REASONS);
  return {
    type: 'object',
    required: ['success', 'error'],
    properties: {
      success: { type: 'boolean', enum: [false] },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: {
            type: 'string',
            enum: codes,
            'x-enum-descriptions': codes.map((c) => ERROR_DESCRIPTIONS[c]),
            description: `The catalogue code; it decides the HTTP status.\n\n${codes.map((c) => `- \`${c}\` (${ERROR_STATUS[c]}): ${ERROR_DESCRIPTIONS[c]}`).join('\n')}`,
          },
          message: { type: 'string', description: 'For people; for BAD_USER_INPUT it starts with the field name.' },
          details: {
            type: 'object',
            additionalProperties: true,
            description:
              'What the code needs said, e.g. `field` (BAD_USER_INPUT), `reason`, `cancellationPolicy` (CANCELLATION_NOT_ALLOWED), `from`/`to`/`allowed` (INVALID_STATE_TRANSITION).',
            properties: {
              field: { type: 'string', description: 'The offending input field, in the names of this route.' },
              reason: {
                type: 'string',
                enum: reasons.map(([name]) => name),
                'x-enum-descriptions': reasons.map(([, r]) => r.description),
                description: `A finer cause under the code.\n\n${reasons.map(([name, r]) => `- \`${name}\` (with ${r.code}): ${r.description}`).join('\n')}`,
              },
              from: { type: 'string', description: 'INVALID_STATE_TRANSITION: the current state.' },
              to: { type: 'string', description: 'INVALID_STATE_TRANSITION: the state asked for.' },
              allowed: {
                type: 'array',
                items: { type: 'string' },
                description: 'INVALID_STATE_TRANSITION: the states reachable from `from` (empty for a final state).',
              },
            },
          },
        },
      },
    },
  };
}
