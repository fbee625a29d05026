import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOOL_ROUTES } from '../../facades/rest/manifests/merchant-tools.ts';
import { dayFromNow } from '../support/booking.ts';
import { http, uniqueEmail } from '../support/client.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, signupCompany, type Company } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';

/** The REST face of the merchant tools (issue 15): one registry, two faces, no drift. */
describe('merchant REST, one route per MCP tool', () => {
  let company: Company;
  let merchant: Client;
  let tools: Awaited<ReturnType<Client['listTools']>>['tools'];
  let openApi: any;
  const ids: Record<string, string> = {};

  const rest = (spec: string, args: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const [method, template] = spec.split(' ');
    const rest = { ...args };
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = rest[name];
      delete rest[name];
      return encodeURIComponent(String(value));
    });
    const bodyless = method === 'GET' || method === 'DELETE';
    const query = new URLSearchParams();
    if (bodyless) for (const [k, v] of Object.entries(rest)) for (const one of Array.isArray(v) ? v : [v]) query.append(k, String(one));
    return http(`/v6${path}${bodyless && [...query].length ? `?${query}` : ''}`, {
      method,
      ...(bodyless ? {} : { body: rest }),
      headers: { ...bearer(company.apiKey), ...headers },
    });
  };

  beforeAll(async () => {
    company = await signupCompany('REST Parity Studio');
    merchant = await mcpClient(company.apiKey);
    ({ tools } = await merchant.listTools());
    openApi = (await http('/openapi/connect-v6.openapi.json')).body;
    // One of each thing the read tools name.
    const staff = await callTool(merchant, 'create_staff_member', { name: 'Mia' });
    for (let day = 0; day < 7; day++) await callTool(merchant, 'set_staff_availability', { memberId: staff.id, dayOfWeek: day, startTime: '09:00', endTime: '17:00' });
    ids.serviceId = (await callTool(merchant, 'create_service', { name: 'Cut', durationMinutes: 60, price: '30', capacity: 1, staffIds: [staff.id], minimumNoticeMinutes: 0 })).id;
    const product = await callTool(merchant, 'create_product', { name: 'Mug', price: '12.50', status: 'active', stock: 5, trackInventory: true });
    ids.productId = product.id;
    ids.promotionId = (await callTool(merchant, 'create_promotion', { name: 'Ten', code: 'TEN', type: 'percentage', value: '10', bookingEnabled: true, onlineEnabled: true, posEnabled: true })).id;
    const member = await http('/v6/customer-portal/auth/register', { body: { name: 'Pat', email: uniqueEmail('pat') }, headers: { 'x-company-id': company.companyId } });
    ids.customerId = member.body.data.member.id;
    const segment = await callTool(merchant, 'create_customer_segment', { name: 'Pat only', customerIds: [ids.customerId] });
    ids.segmentId = segment.id;
    await eventually(async () => expect((await callTool(merchant, 'preview_segment', { segmentId: segment.id })).count).toBe(1), { tries: 300 });
    ids.campaignId = (await callTool(merchant, 'create_campaign', { name: 'Hi', channel: 'email', recipientSource: 'segment', segmentId: segment.id, channelConfig: { subject: 'Hi', html: '<p>Hi</p>' } })).id;
    ids.orderId = (await callTool(merchant, 'create_shop_order', { accountId: ids.customerId, items: [{ productId: ids.productId, quantity: 1 }] })).id;
    const post = await callTool(merchant, 'create_post', { title: 'Hello world', blocks: [{ type: 'paragraph', data: { text: 'Hi' } }] });
    ids.slug = post.slug;
    ids.eventId = (await callTool(merchant, 'create_event', { title: 'Open day', startsAt: '2031-01-01T10:00:00Z', endsAt: '2031-01-01T12:00:00Z', capacity: 10, status: 'published' })).id;
    ids.surveyId = (await callTool(merchant, 'create_survey', { title: 'How was it', status: 'published', questions: [{ id: 'r', type: 'rating', label: 'Rating' }] })).id;
    ids.startDate = ids.endDate = dayFromNow(3);
  }, 120_000);

  it('every tool but the signup pair has a route, every route a tool, its path segments named as the tool’s parameters', () => {
    const merchantTools = tools.map((t) => t.name).filter((n) => !n.startsWith('register_organisation_'));
    expect(Object.keys(TOOL_ROUTES).sort()).toEqual(merchantTools.sort());
    for (const [name, spec] of Object.entries(TOOL_ROUTES)) {
      const tool = tools.find((t) => t.name === name)!;
      const params = [...spec.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const p of params) expect(Object.keys(tool.inputSchema.properties ?? {}), `${name}: {${p}}`).toContain(p);
    }
    // No two routes on one method and path.
    expect(new Set(Object.values(TOOL_ROUTES)).size).toBe(Object.keys(TOOL_ROUTES).length);
  });

  it('the OpenAPI document lists every route with the tool’s parameters by name, a request and a response schema', () => {
    const merchantOps = Object.entries(openApi.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith('/v6/merchant/'))
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })));
    // The tools' routes, and the contract's two routes: the bookable services and the send (no tool exists for it).
    const contract = ['GET /v6/merchant/bookings/services', 'POST /v6/merchant/campaigns/{id}/send'];
    expect(merchantOps.map((o) => `${o.method} ${o.path}`).sort()).toEqual([...Object.values(TOOL_ROUTES).map((s) => s.replace(' ', ' /v6')), ...contract].sort());
    for (const { path, method, op } of merchantOps) {
      if (contract.includes(`${method} ${path}`)) continue;
      const tool = tools.find((t) => t.name === op.operationId)!;
      expect(TOOL_ROUTES[tool.name], op.operationId).toBe(`${method} ${path.slice(3)}`);
      const named = [
        ...(op.parameters ?? []).filter((p: any) => p.in === 'path' || p.in === 'query').map((p: any) => p.name),
        ...Object.keys(op.requestBody?.content['application/json'].schema.properties ?? {}),
      ].sort();
      expect(named, tool.name).toEqual(Object.keys(tool.inputSchema.properties ?? {}).filter((n) => n !== 'idempotencyKey').sort());
      const success = op.responses['200'] ?? op.responses['201'];
      expect(success.content['application/json'].schema.properties.data, tool.name).toBeDefined();
    }
  });

  it('a read answers over REST what the tool answers over MCP, for every read tool', async () => {
    const reads = tools.filter((t) => t.annotations?.readOnlyHint && !t.name.startsWith('register_'));
    expect(reads.length).toBeGreaterThan(30);
    for (const tool of reads) {
      const args: Record<string, unknown> = tool.name === 'validate_promotion' ? { promotionCode: 'TEN', channel: 'online', amount: 20 } : {};
      for (const name of (tool.inputSchema.required ?? []) as string[]) {
        if (name in args) continue;
        if (!(name in ids)) throw new Error(`no fixture for ${tool.name}'s ${name}`);
        args[name] = ids[name];
      }
      const viaMcp = await merchant.callTool({ name: tool.name, arguments: args });
      expect(viaMcp.isError, `${tool.name}: ${JSON.stringify(viaMcp.content)}`).toBeFalsy();
      const viaRest = await rest(TOOL_ROUTES[tool.name], args);
      expect(viaRest.status, `${tool.name}: ${JSON.stringify(viaRest.body)}`).toBe(200);
      const expected = (viaMcp.structuredContent as any) ?? null;
      const wrapped = (tool.outputSchema as any)?.required?.[0] === 'result' && Object.keys((tool.outputSchema as any).properties).length === 1;
      expect(viaRest.body.data, tool.name).toEqual(wrapped ? expected.result : expected);
    }
  }, 60_000);

  it('writes through REST: flat bodies, 201 for creations, the Idempotency-Key, errors in the envelope naming the field', async () => {
    const created = await rest(TOOL_ROUTES.create_customer_segment, { name: 'Via REST', rules: { tag: 'rest' } }, { 'idempotency-key': `seg-${Date.now()}` });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, data: { name: 'Via REST', kind: 'rules', rules: { tag: 'rest' }, memberCount: 0 } });
    const key = `campaign-${Date.now()}`;
    const body = { name: 'REST campaign', channel: 'email', recipientSource: 'segment', segmentId: ids.segmentId, channelConfig: { subject: 'Hi', html: '<p>x</p>' } };
    const first = await rest(TOOL_ROUTES.create_campaign, body, { 'idempotency-key': key });
    const again = await rest(TOOL_ROUTES.create_campaign, body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    const paused = await rest(TOOL_ROUTES.pause_campaign, { campaignId: first.body.data.id });
    expect(paused.status).toBe(409);
    expect(paused.body).toMatchObject({ success: false, error: { code: 'INVALID_STATE_TRANSITION', details: { from: 'DRAFT', to: 'PAUSED' } } });
    const { requestId: _r, ...sameError } = paused.body.error;
    expect(await toolError(merchant, 'pause_campaign', { campaignId: first.body.data.id })).toMatchObject(sameError);
    const bad = await rest(TOOL_ROUTES.create_campaign, { ...body, channel: 'fax' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('channel');
    expect((await rest(TOOL_ROUTES.get_campaign, { campaignId: 'nope' })).body.error.details.field).toBe('campaignId');
    expect((await rest(TOOL_ROUTES.list_campaigns, { limit: 'many' })).body.error.details.field).toBe('limit');
    expect((await rest(TOOL_ROUTES.list_campaigns, { colour: 'red' })).body.error.details.field).toBe('colour');
    const deleted = await rest(TOOL_ROUTES.delete_campaign, { campaignId: first.body.data.id });
    expect(deleted.body).toEqual({ success: true, data: { id: first.body.data.id, deleted: true } });
    // Another method on a tool's path: 405 naming the ones it takes.
    const wrongMethod = await http(`/v6/merchant/campaigns/${ids.campaignId}/pause`, { method: 'GET', headers: bearer(company.apiKey) });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(wrongMethod.body.error.code).toBe('METHOD_NOT_ALLOWED');
    // Without the merchant's key: 401; another company's key sees nothing of this one.
    expect((await http(`/v6/merchant/campaigns/${ids.campaignId}`)).status).toBe(401);
    const other = await signupCompany('REST Other');
    expect((await http(`/v6/merchant/campaigns/${ids.campaignId}`, { headers: bearer(other.apiKey) })).status).toBe(404);
  });
});
