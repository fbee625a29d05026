import { v7 as uuidv7 } from 'uuid';
import { sampleValue, validObject, type Schema } from './malformed.ts';
import { bearer } from './fixtures.ts';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
}

/** One operation of the OpenAPI document, its `$ref`s resolved. */
export interface Operation {
  method: string;
  path: string;
  id: string;
  security: Record<string, string[]>[];
  parameters: Parameter[];
  body?: Schema;
}

/** `$ref`s of an OpenAPI document resolved in place (a few levels; request schemas are small). */
export function deref(document: any, value: any, depth = 0): any {
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (typeof value.$ref === 'string') {
    const target = value.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: any, key: string) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
    return deref(document, target, depth + 1);
  }
  if (Array.isArray(value)) return value.map((v) => deref(document, v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deref(document, v, depth + 1)]));
}

export function operationsOf(document: any): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<any>(document.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const parameters = deref(document, [...(item.parameters ?? []), ...(op.parameters ?? [])]) as Parameter[];
      const body = deref(document, op.requestBody?.content?.['application/json']?.schema);
      operations.push({
        method: method.toUpperCase(),
        path,
        id: `${method.toUpperCase()} ${path}`,
        security: op.security ?? document.security ?? [],
        parameters,
        body,
      });
    }
  }
  return operations;
}

/** The credentials of a company a sweep calls with. */
export interface Credentials {
  companyId: string;
  apiKey: string;
  customerToken: string;
}

/** The headers an operation's OpenAPI security asks for. */
export function credentialsFor(op: Operation, c: Credentials): Record<string, string> {
  const alternatives = op.security.map((s) => Object.keys(s));
  const tenant = { 'x-company-id': c.companyId };
  if (alternatives.some((a) => a.includes('apiKey'))) return bearer(c.apiKey);
  if (alternatives.length && alternatives.every((a) => a.includes('customerToken'))) return { ...tenant, ...bearer(c.customerToken) };
  if (alternatives.some((a) => a.includes('companyId'))) return tenant;
  return {};
}

/**
 * A valid-looking request of an operation: its path parameters from `ids` by name (a fresh UUIDv7
 * otherwise), its required query parameters and body sampled from their schemas.
 */
export function sampleRequest(op: Operation, ids: Record<string, string> = {}): { path: string; body?: string } {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? uuidv7()));
  const query = new URLSearchParams();
  for (const p of op.parameters.filter((p) => p.in === 'query' && p.required)) query.set(p.name, String(ids[p.name] ?? sampleValue(p.name, p.schema)));
  const search = [...query].length ? `?${query}` : '';
  const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : JSON.stringify(validObject(op.body));
  return { path: `${path}${search}`, body };
}
