import SwaggerParser from '@apidevtools/swagger-parser';
import { auditServer } from 'graphql-http';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { TOOL_ROUTES } from '../../facades/rest/manifests/merchant-tools.ts';
import { ROUTES } from '../../facades/rest/manifests/index.ts';
import { http } from '../support/client.ts';
import { testServer } from '../support/server.ts';

describe('router HTTP entry point', () => {
  it('answers health and readiness', async () => {
    expect((await http('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await http('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    // The queue: its workers run here, and nothing runnable has been waiting long.
    expect(ready.body.queue.workers).toBeGreaterThan(1);
    expect(ready.body.queue.oldestWaitingSeconds ?? 0).toBeLessThan(60);
  });

  it('answers unknown routes with a 404 envelope', async () => {
    for (const path of ['/v6/customer-portal/nothing', '/v6/webhook', '/nothing', '/v6/customer-portal/auth/loginChannel']) {
      const res = await http(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
    const wrongMethod = await http('/v6/customer-portal/auth/otp');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toMatchObject({ success: false, error: { code: 'METHOD_NOT_ALLOWED' } });
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('does not expose root fields outside the manifest over REST', async () => {
    // `viewer` and `company` exist in GraphQL but are no REST route.
    expect((await http('/v6/viewer')).status).toBe(404);
    expect((await http('/v6/company')).status).toBe(404);
  });

  it('serves a valid OpenAPI 3 document listing exactly the manifest routes and the merchant tools’ routes', async () => {
    const res = await http('/openapi/connect-v6.openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('yaml');
    const document = parse(res.body);
    const validated: any = await SwaggerParser.validate(structuredClone(document));
    expect(validated.openapi).toMatch(/^3\./);
    const listed = Object.entries(document.paths).flatMap(([path, ops]: [string, any]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const expected = [
      ...ROUTES.map((r) => `${r.method} /v6${r.path.replace(/:([A-Za-z]+)/g, '{$1}')}`),
      ...Object.values(TOOL_ROUTES).map((s) => s.replace(' ', ' /v6')),
    ];
    expect(listed.sort()).toEqual(expected.sort());
    // Flat bodies: the OTP body is { phone, email }, not { input }.
    const otp = document.paths['/v6/customer-portal/auth/otp'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(otp.properties).sort()).toEqual(['email', 'phone']);
    const verify = document.paths['/v6/customer-portal/auth/otp/verify'].post.requestBody.content['application/json'].schema;
    expect(verify.required).toEqual(['code']);
    const resolve = document.paths['/v6/customer-portal/storefront/resolve-domain'].get.parameters;
    expect(resolve).toEqual([expect.objectContaining({ name: 'domain', in: 'query', required: true })]);
  });

  it('points /llms.txt to the OpenAPI file and the Markdown guides, which are served', async () => {
    const llms = await http('/llms.txt');
    expect(llms.status).toBe(200);
    const links = [...String(llms.body).matchAll(/\((https?:\/\/[^)]+)\)/g)].map((m) => m[1]);
    expect(links.some((l) => l.endsWith('/openapi/connect-v6.openapi.yaml'))).toBe(true);
    for (const link of links.filter((l) => /\/openapi\/|\/docs$/.test(l))) expect((await fetch(link)).status, link).toBe(200);
    expect(links.some((l) => l.endsWith('/openapi/connect-v6.openapi.json'))).toBe(true);
    const guides = links.filter((l) => l.endsWith('.md'));
    expect(guides.length).toBeGreaterThanOrEqual(2);
    for (const link of guides) {
      const res = await fetch(link);
      expect(res.status, link).toBe(200);
      expect(await res.text()).toMatch(/^# /);
    }
  });

  it('reads the dev outbox only with an address', async () => {
    const res = await http('/dev/outbox');
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe('to');
    expect((await http('/dev/outbox?to=nobody@example.test')).body).toEqual({ success: true, data: { items: [] } });
  });

  it('passes the graphql-http server audit with no failed MUST', async () => {
    const { url } = await testServer();
    const results = await auditServer({ url: `${url}/graphql` });
    const failedMust = results.filter((r) => r.status === 'error').map((r) => `${r.id} ${r.name}: ${'reason' in r ? r.reason : ''}`);
    expect(failedMust).toEqual([]);
    expect(results.filter((r) => r.status === 'ok').length).toBeGreaterThan(30);
  });
});
