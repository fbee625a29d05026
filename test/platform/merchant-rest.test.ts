import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOOL_ROUTES } from '../../facades/rest/manifests/merchant-tools.ts';
import { dayFromNow } from '../support/booking.ts';
import { http, uniqueEmail } from '../support/client.ts';
import { testServer } from '../support/server.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, signupCompany, upgradeToStarter, type Company } from '../support/fixtures.ts';
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
    // Every tool and route, some twice, within a minute: more than the free plan's rate allows.
    await upgradeToStarter(company.apiKey);
    merchant = await mcpClient(company.apiKey);
    ({ tools } = await merchant.listTools());
    openApi = (await http('/openapi/connect-v6.openapi.json')).body;
    // One of each thing the read tools name.
    const staff = await callTool(merchant, 'create_staff_member', { name: 'Mia' });
    ids.staffId = staff.id;
    for (let day = 0; day < 7; day++)
      await callTool(merchant, 'set_staff_availability', { memberId: staff.id, dayOfWeek: day, startTime: '09:00', endTime: '17:00' });
    ids.serviceId = (
      await callTool(merchant, 'create_service', { name: 'Cut', durationMinutes: 60, price: '30', capacity: 1, staffIds: [staff.id], minimumNoticeMinutes: 0 })
    ).id;
    const product = await callTool(merchant, 'create_product', { name: 'Mug', price: '12.50', status: 'active', stock: 5, trackInventory: true });
    ids.productId = product.id;
    ids.promotionId = (
      await callTool(merchant, 'create_promotion', {
        name: 'Ten',
        code: 'TEN',
        type: 'percentage',
        value: '10',
        bookingEnabled: true,
        onlineEnabled: true,
        posEnabled: true,
      })
    ).id;
    const member = await http('/v6/customer-portal/auth/register', {
      body: { name: 'Pat', email: uniqueEmail('pat') },
      headers: { 'x-company-id': company.companyId },
    });
    ids.customerId = member.body.data.member.id;
    const segment = await callTool(merchant, 'create_customer_segment', { name: 'Pat only', customerIds: [ids.customerId] });
    ids.segmentId = segment.id;
    await eventually(async () => expect((await callTool(merchant, 'preview_segment', { segmentId: segment.id })).count).toBe(1), { tries: 300 });
    ids.campaignId = (
      await callTool(merchant, 'create_campaign', {
        name: 'Hi',
        channel: 'email',
        recipientSource: 'segment',
        segmentId: segment.id,
        channelConfig: { subject: 'Hi', html: '<p>Hi</p>' },
      })
    ).id;
    ids.orderId = (await callTool(merchant, 'create_shop_order', { accountId: ids.customerId, items: [{ productId: ids.productId, quantity: 1 }] })).id;
    ids.conversationId = (await callTool(merchant, 'send_message', { customerId: ids.customerId, channel: 'email', text: 'Hello Pat' })).conversationId;
    const post = await callTool(merchant, 'create_post', { title: 'Hello world', blocks: [{ type: 'paragraph', data: { text: 'Hi' } }] });
    ids.slug = post.slug;
    ids.eventId = (
      await callTool(merchant, 'create_event', {
        title: 'Open day',
        startsAt: '2031-01-01T10:00:00Z',
        endsAt: '2031-01-01T12:00:00Z',
        capacity: 10,
        status: 'published',
      })
    ).id;
    ids.surveyId = (
      await callTool(merchant, 'create_survey', { title: 'How was it', status: 'published', questions: [{ id: 'r', type: 'rating', label: 'Rating' }] })
    ).id;
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
    expect(merchantOps.map((o) => `${o.method} ${o.path}`).sort()).toEqual(
      [...Object.values(TOOL_ROUTES).map((s) => s.replace(' ', ' /v6')), ...contract].sort(),
    );
    for (const { path, method, op } of merchantOps) {
      if (contract.includes(`${method} ${path}`)) continue;
      const tool = tools.find((t) => t.name === op.operationId)!;
      expect(TOOL_ROUTES[tool.name], op.operationId).toBe(`${method} ${path.slice(3)}`);
      const named = [
        ...(op.parameters ?? []).filter((p: any) => p.in === 'path' || p.in === 'query').map((p: any) => p.name),
        ...Object.keys(op.requestBody?.content['application/json'].schema.properties ?? {}),
      ].sort();
      expect(named, tool.name).toEqual(
        Object.keys(tool.inputSchema.properties ?? {})
          .filter((n) => n !== 'idempotencyKey')
          .sort(),
      );
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
      // Reading the plan is itself an API call: its meters count on between the two reads.
      const settled = (v: unknown) => (tool.name === 'get_plan_and_usage' ? { ...(v as object), usage: undefined } : v);
      expect(settled(viaRest.body.data), tool.name).toEqual(settled(wrapped ? expected.result : expected));
    }
  }, 60_000);

  /**
   * Every write tool through both faces on equivalent data: the MCP call, then the REST call on a
   * twin made the same way (a name with the face in it, the next slot, a second customer). Their
   * answers are the same once ids, instants, the face's token and the values a case names as its
   * own (a sequence number, a random code) are set aside.
   */
  it('a write answers over REST what the tool answers over MCP, for every write tool', async () => {
    const writes = tools.filter((t) => !t.annotations?.readOnlyHint && !t.name.startsWith('register_'));
    expect(Object.keys(WRITES).sort()).toEqual(writes.map((t) => t.name).sort());
    const tool = (name: string, args: Record<string, unknown>) => callTool(merchant, name, args);
    const slots: { start: string }[] = (
      await tool('get_available_slots', { serviceId: ids.serviceId, startDate: dayFromNow(10), endDate: dayFromNow(12), limit: 100 })
    ).items;
    let nextSlot = 0;
    const fixtures: Fixtures = { ids, tool, slot: () => slots[nextSlot++].start, companyId: company.companyId };
    for (const [name, write] of Object.entries(WRITES)) {
      const answers = [];
      for (const face of ['mcp', 'rest'] as const) {
        const args = await write.args(fixtures, FACE[face]);
        if (face === 'mcp') {
          const result = await merchant.callTool({ name, arguments: args });
          expect(result.isError, `${name} over MCP: ${JSON.stringify(result.content)}`).toBeFalsy();
          const wrapped = tools.find((t) => t.name === name)!.outputSchema?.required?.[0] === 'result';
          answers.push(wrapped ? (result.structuredContent as any).result : result.structuredContent);
        } else {
          const result = await rest(TOOL_ROUTES[name], args);
          expect([200, 201], `${name} over REST: ${JSON.stringify(result.body)}`).toContain(result.status);
          answers.push(result.body.data);
        }
      }
      expect(comparable(answers[1], write.own), name).toEqual(comparable(answers[0], write.own));
    }
  }, 120_000);

  it('writes through REST: flat bodies, 201 for creations, the Idempotency-Key, errors in the envelope naming the field', async () => {
    const created = await rest(TOOL_ROUTES.create_customer_segment, { name: 'Via REST', rules: { tag: 'rest' } }, { 'idempotency-key': `seg-${Date.now()}` });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, data: { name: 'Via REST', kind: 'rules', rules: { tag: 'rest' }, memberCount: 0 } });
    const key = `campaign-${Date.now()}`;
    const body = {
      name: 'REST campaign',
      channel: 'email',
      recipientSource: 'segment',
      segmentId: ids.segmentId,
      channelConfig: { subject: 'Hi', html: '<p>x</p>' },
    };
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

interface Fixtures {
  ids: Record<string, string>;
  companyId: string;
  tool: (name: string, args: Record<string, unknown>) => Promise<any>;
  /** The next free slot of the shared service (one place each). */
  slot: () => string;
}

/** What tells a face's data apart in names, emails, codes and slugs. */
const FACE = { mcp: 'zmcpz', rest: 'zrestz' } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** An answer with what differs between twins by construction set aside. */
function comparable(value: unknown, own: string[] = [], key = ''): unknown {
  if (own.includes(key)) return '<own>';
  if (Array.isArray(value)) return value.map((v) => comparable(v, own));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, comparable(v, own, k)]));
  if (typeof value !== 'string') return value;
  if (UUID.test(value)) return '<id>';
  if (INSTANT.test(value)) return '<instant>';
  return value.replace(/zmcpz|zrestz/gi, (m) => (m === m.toUpperCase() ? 'ZFACEZ' : 'zfacez'));
}

const booking = (f: Fixtures, t: string) =>
  f.tool('create_booking', { serviceId: f.ids.serviceId, slotTime: f.slot(), customer: { name: `Ana ${t}`, email: `ana.${t}@parity.example` } });
/** Customers made per face, numbered per face so that twins get twin addresses. */
const made: Record<string, number> = {};
const customer = async (f: Fixtures, t: string) => {
  made[t] = (made[t] ?? 0) + 1;
  const res = await http('/v6/customer-portal/auth/register', {
    body: { name: `Pat ${t}`, email: `pat.${t}.${made[t]}.${f.companyId}@parity.example` },
    headers: { 'x-company-id': f.companyId },
  });
  return { id: res.body.data.member.id as string, token: res.body.data.token as string };
};
const product = (f: Fixtures, t: string) => f.tool('create_product', { name: `Comb ${t}`, price: '8.00', status: 'active', stock: 20, trackInventory: true });
const order = async (f: Fixtures, t: string) =>
  f.tool('create_shop_order', { accountId: (await customer(f, t)).id, items: [{ productId: (await product(f, t)).id, quantity: 1 }] });
const paidOrder = async (f: Fixtures, t: string) => {
  const made = await order(f, t);
  await f.tool('mark_order_paid', { orderId: made.id });
  return made;
};
const post = (f: Fixtures, t: string) =>
  f.tool('create_post', {
    title: `Post ${t}`,
    blocks: [
      { type: 'paragraph', data: { text: 'One' } },
      { type: 'heading', data: { text: 'Two', level: 2 } },
    ],
  });
const campaign = (f: Fixtures, t: string, extra: Record<string, unknown> = {}) =>
  f.tool('create_campaign', {
    name: `Hello ${t}`,
    channel: 'email',
    recipientSource: 'segment',
    segmentId: f.ids.segmentId,
    channelConfig: { subject: 'Hi', html: '<p>Hi</p>' },
    ...extra,
  });
const giftOffer = (f: Fixtures, t: string) => f.tool('create_gift_offer', { title: `Mug ${t}`, pointsCost: 10, stock: 50, status: 'active' });
const redemption = async (f: Fixtures, t: string) => {
  const member = await customer(f, t);
  await f.tool('adjust_points', { customerId: member.id, points: 50, reason: 'Start' });
  const offer = await giftOffer(f, t);
  const res = await http(`/v6/customer-portal/gifts/offers/${offer.id}/redeem`, {
    body: {},
    headers: { 'x-company-id': f.companyId, authorization: `Bearer ${member.token}` },
  });
  return res.body.data;
};
/** A conversation of the face's own: a message to a customer of its own, by email. */
const conversation = async (f: Fixtures, t: string) =>
  (await f.tool('send_message', { customerId: (await customer(f, t)).id, channel: 'email', text: `Hello ${t}` })).conversationId as string;
const template = (f: Fixtures, t: string, name: string) =>
  f.tool('create_message_template', { name: `${name}_${t}`, language: 'en', category: 'utility', body: 'Hi {{1}}' });
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/**
 * Each write tool's arguments for one face (`t` in every name it makes), on a twin of its own where
 * the write changes what it acts on. `own`: answer fields that differ between twins by nature.
 */
const WRITES: Record<string, { args: (f: Fixtures, t: string) => Promise<Record<string, unknown>>; own?: string[] }> = {
  // Organisation
  update_company_settings: { args: async (_f, t) => ({ name: `Parity Studio ${t}` }) },
  add_storefront_domain: { args: async (_f, t) => ({ domain: `${t}.parity.example` }), own: ['storefrontDomains', 'domains'] },
  create_api_key: { args: async (_f, t) => ({ name: `Key ${t}` }), own: ['apiKey', 'key', 'prefix', 'lastFour'] },
  revoke_api_key: { args: async (f, t) => ({ apiKeyId: (await f.tool('create_api_key', { name: `Old ${t}` })).id }), own: ['prefix', 'lastFour'] },
  // The second face finds the first one's open checkout and answers it again; reading the plan counts an API call.
  start_plan_checkout: { args: async () => ({ plan: 'starter', paymentMethodId: 'sandbox' }), own: ['checkoutUrl'] },
  change_plan: { args: async () => ({ plan: 'free' }), own: ['used', 'remaining'] },
  // Messaging: each face connects its own number (a number is one company's; the second replaces the first).
  connect_whatsapp: {
    args: async (_f, t) => ({ phoneNumberId: t === 'zrestz' ? '2000000001' : '1000000001', accessToken: `token-${t}` }),
    own: ['phoneNumberId'],
  },
  connect_sms: {
    args: async (_f, t) => ({ accountSid: `AC${'0'.repeat(32)}`, authToken: `token-${t}`, fromNumber: t === 'zrestz' ? '+4915100000002' : '+4915100000001' }),
    own: ['fromNumber'],
  },
  // The inbox and templates
  send_message: { args: async (f, t) => ({ customerId: (await customer(f, t)).id, channel: 'email', text: `Hello ${t}` }) },
  reply_to_conversation: { args: async (f, t) => ({ conversationId: await conversation(f, t), text: `Reply ${t}` }) },
  add_conversation_note: { args: async (f, t) => ({ conversationId: await conversation(f, t), text: `Note ${t}` }) },
  assign_conversation: { args: async (f, t) => ({ conversationId: await conversation(f, t), assigneeId: f.ids.staffId, priority: 'high' }) },
  set_conversation_status: { args: async (f, t) => ({ conversationId: await conversation(f, t), status: 'resolved' }) },
  create_message_template: { args: async (_f, t) => ({ name: `hello_${t}`, language: 'en', category: 'utility', body: 'Hi {{1}}' }) },
  update_message_template: { args: async (f, t) => ({ templateId: (await template(f, t, 'old')).id, body: 'Hello {{1}}' }) },
  delete_message_template: { args: async (f, t) => ({ templateId: (await template(f, t, 'gone')).id }) },
  // Services and bookings
  create_service_category: { args: async (_f, t) => ({ name: `Colour ${t}` }) },
  create_service: { args: async (f, t) => ({ name: `Trim ${t}`, durationMinutes: 30, price: '20', capacity: 1, staffIds: [f.ids.staffId] }) },
  update_service: {
    args: async (f, t) => ({
      serviceId: (await f.tool('create_service', { name: `Wash ${t}`, durationMinutes: 30, price: '10', capacity: 1 })).id,
      price: '12.50',
    }),
  },
  create_staff_member: { args: async (_f, t) => ({ name: `Lee ${t}`, title: 'Stylist' }) },
  set_staff_availability: {
    args: async (f, t) => ({ memberId: (await f.tool('create_staff_member', { name: `Sam ${t}` })).id, dayOfWeek: 2, startTime: '10:00', endTime: '14:00' }),
  },
  create_resource: { args: async (_f, t) => ({ name: `Room ${t}`, type: 'room' }) },
  set_resource_availability: {
    args: async (f, t) => ({
      resourceId: (await f.tool('create_resource', { name: `Chair ${t}`, type: 'chair' })).id,
      dayOfWeek: 3,
      startTime: '08:00',
      endTime: '12:00',
    }),
  },
  create_booking: {
    args: async (f, t) => ({ serviceId: f.ids.serviceId, slotTime: f.slot(), customer: { name: `Bo ${t}`, email: `bo.${t}@parity.example` } }),
  },
  cancel_booking: { args: async (f, t) => ({ bookingId: (await booking(f, t)).id, reason: 'Ill' }) },
  reschedule_booking: { args: async (f, t) => ({ bookingId: (await booking(f, t)).id, slotTime: f.slot() }) },
  update_booking_status: {
    args: async (f, t) => {
      const made = await booking(f, t);
      // Started already: moved into the past (the database is the clock's only stand-in here).
      const { app } = await testServer();
      await app.platform.runtime.db.orm.em
        .getConnection()
        .execute(
          `update booking.booking set starts_at = starts_at - interval '60 days', ends_at = ends_at - interval '60 days', block_start = block_start - interval '60 days', block_end = block_end - interval '60 days' where id = ?`,
          [made.id],
        );
      return { bookingId: made.id, status: 'NO_SHOW' };
    },
  },
  // Content
  create_category: { args: async (_f, t) => ({ name: `News ${t}` }) },
  create_post_type: { args: async (_f, t) => ({ key: `recipe_${t}`, label: `Recipe ${t}` }) },
  create_post_type_field: {
    args: async (f, t) => ({
      postTypeId: (await f.tool('create_post_type', { key: `menu_${t}`, label: 'Menu' })).id,
      key: 'price',
      label: 'Price',
      fieldType: 'number',
    }),
  },
  create_post: { args: async (_f, t) => ({ title: `Story ${t}`, blocks: [{ type: 'paragraph', data: { text: 'Hello' } }] }) },
  update_post: { args: async (f, t) => ({ postId: (await post(f, t)).id, status: 'published' }) },
  append_post_block: { args: async (f, t) => ({ postId: (await post(f, t)).id, type: 'paragraph', props: { text: 'Three' } }) },
  reorder_post_blocks: {
    args: async (f, t) => {
      const made = await post(f, t);
      return { postId: made.id, blockIds: made.blocks.map((b: { id: string }) => b.id).reverse() };
    },
  },
  replace_post_block: { args: async (f, t) => ({ postId: (await post(f, t)).id, index: 0, props: { text: 'Replaced' } }) },
  create_page: { args: async (_f, t) => ({ title: `About ${t}`, blocks: [{ type: 'paragraph', data: { text: 'Us' } }] }) },
  update_page: { args: async (f, t) => ({ pageId: (await f.tool('create_page', { title: `Team ${t}` })).id, status: 'published' }) },
  set_menu: { args: async (_f, t) => ({ location: `footer-${t}`, items: [{ label: 'Home', url: '/' }] }) },
  create_event: { args: async (_f, t) => ({ title: `Workshop ${t}`, startsAt: '2031-02-01T10:00:00Z', endsAt: '2031-02-01T12:00:00Z', capacity: 12 }) },
  update_event: {
    args: async (f, t) => ({
      eventId: (await f.tool('create_event', { title: `Talk ${t}`, startsAt: '2031-03-01T10:00:00Z', endsAt: '2031-03-01T11:00:00Z' })).id,
      capacity: 30,
      status: 'published',
    }),
  },
  create_survey: { args: async (_f, t) => ({ title: `Feedback ${t}`, questions: [{ id: 'r', type: 'rating', label: 'Rating' }] }) },
  update_survey: {
    args: async (f, t) => ({
      surveyId: (await f.tool('create_survey', { title: `Poll ${t}`, questions: [{ id: 'q', type: 'text', label: 'Why' }] })).id,
      status: 'published',
    }),
  },
  create_survey_invitations: {
    args: async (f, t) => ({
      surveyId: (await f.tool('create_survey', { title: `Invite ${t}`, status: 'published', questions: [{ id: 'r', type: 'rating', label: 'Rating' }] })).id,
      recipients: [`guest.${t}@parity.example`],
    }),
    own: ['token', 'url', 'link'],
  },
  delete_customer: { args: async (f, t) => ({ customerId: (await customer(f, t)).id }) },
  // Shop catalog
  create_product_category: { args: async (_f, t) => ({ name: `Hair ${t}` }) },
  update_product_category: {
    args: async (f, t) => ({ categoryId: (await f.tool('create_product_category', { name: `Skin ${t}` })).id, description: 'Creams' }),
  },
  delete_product_category: { args: async (f, t) => ({ categoryId: (await f.tool('create_product_category', { name: `Old ${t}` })).id }) },
  create_brand: { args: async (_f, t) => ({ name: `Acme ${t}` }) },
  update_brand: { args: async (f, t) => ({ brandId: (await f.tool('create_brand', { name: `Brand ${t}` })).id, description: 'Good' }) },
  create_collection: { args: async (_f, t) => ({ name: `Summer ${t}` }) },
  update_collection: { args: async (f, t) => ({ collectionId: (await f.tool('create_collection', { name: `Winter ${t}` })).id, description: 'Warm' }) },
  add_products_to_collection: {
    args: async (f, t) => ({ collectionId: (await f.tool('create_collection', { name: `Gifts ${t}` })).id, productIds: [(await product(f, t)).id] }),
  },
  remove_products_from_collection: {
    args: async (f, t) => {
      const item = await product(f, t);
      return { collectionId: (await f.tool('create_collection', { name: `Sale ${t}`, productIds: [item.id] })).id, productIds: [item.id] };
    },
  },
  create_product: { args: async (_f, t) => ({ name: `Brush ${t}`, price: '9.90', status: 'active', stock: 3, trackInventory: true }) },
  update_product: { args: async (f, t) => ({ productId: (await product(f, t)).id, price: '7.50' }) },
  adjust_stock: { args: async (f, t) => ({ variantId: (await product(f, t)).variants[0].id, delta: 4, reason: 'Delivery' }) },
  create_shipping_method: { args: async (_f, t) => ({ name: `Courier ${t}`, kind: 'FLAT_RATE', price: '4.90' }) },
  update_shipping_method: {
    args: async (f, t) => ({
      shippingMethodId: (await f.tool('create_shipping_method', { name: `Post ${t}`, kind: 'FLAT_RATE', price: '3.00' })).id,
      price: '3.50',
    }),
  },
  // Orders
  create_shop_order: {
    args: async (f, t) => ({ accountId: (await customer(f, t)).id, items: [{ productId: (await product(f, t)).id, quantity: 2 }] }),
    own: ['number', 'accessToken', 'paymentUrl', 'url', 'clientSecret'],
  },
  mark_order_paid: {
    args: async (f, t) => ({ orderId: (await order(f, t)).id }),
    own: ['number', 'accessToken', 'paymentUrl', 'url', 'clientSecret', 'providerReference'],
  },
  fulfil_order: {
    args: async (f, t) => ({ orderId: (await paidOrder(f, t)).id }),
    own: ['number', 'accessToken', 'paymentUrl', 'url', 'clientSecret', 'providerReference'],
  },
  cancel_order: {
    args: async (f, t) => ({ orderId: (await order(f, t)).id, reason: 'Changed mind' }),
    own: ['number', 'accessToken', 'paymentUrl', 'url', 'clientSecret'],
  },
  refund_order: {
    args: async (f, t) => ({ orderId: (await paidOrder(f, t)).id }),
    own: ['number', 'accessToken', 'paymentUrl', 'url', 'clientSecret', 'providerReference'],
  },
  // Promotions
  create_promotion: {
    args: async (_f, t) => ({
      name: `Spring ${t}`,
      code: `SPRING${t}`,
      type: 'percentage',
      value: '15',
      bookingEnabled: true,
      onlineEnabled: true,
      posEnabled: false,
    }),
  },
  update_promotion: {
    args: async (f, t) => ({
      promotionId: (
        await f.tool('create_promotion', {
          name: `Fall ${t}`,
          code: `FALL${t}`,
          type: 'fixed',
          value: '5',
          bookingEnabled: false,
          onlineEnabled: true,
          posEnabled: false,
        })
      ).id,
      value: '6',
    }),
  },
  deactivate_promotion: {
    args: async (f, t) => ({
      promotionId: (
        await f.tool('create_promotion', {
          name: `Once ${t}`,
          code: `ONCE${t}`,
          type: 'percentage',
          value: '5',
          bookingEnabled: true,
          onlineEnabled: true,
          posEnabled: true,
        })
      ).id,
    }),
  },
  // Loyalty
  set_loyalty_rules: { args: async () => ({ pointsPerCurrencyUnit: '1', pointsPerBooking: 5, expiryDays: 365 }) },
  adjust_points: { args: async (f, t) => ({ customerId: (await customer(f, t)).id, points: 25, reason: 'Welcome' }) },
  create_membership_tier: { args: async (_f, t) => ({ name: `Gold ${t}`, threshold: t === FACE.mcp ? 1000 : 1001 }), own: ['threshold', 'sortOrder'] },
  update_membership_tier: {
    args: async (f, t) => ({
      tierId: (await f.tool('create_membership_tier', { name: `Silver ${t}`, threshold: t === FACE.mcp ? 500 : 501 })).id,
      color: '#c0c0c0',
    }),
    own: ['threshold', 'sortOrder'],
  },
  create_gift_offer: { args: async (_f, t) => ({ title: `Tote ${t}`, pointsCost: 80, stock: 5, status: 'active' }) },
  update_gift_offer: { args: async (f, t) => ({ offerId: (await giftOffer(f, t)).id, pointsCost: 12 }) },
  issue_gift_claims: { args: async (f, t) => ({ offerId: (await giftOffer(f, t)).id, count: 2 }), own: ['token', 'claimToken', 'url', 'link'] },
  mark_redemption_used: { args: async (f, t) => ({ code: (await redemption(f, t)).code }), own: ['code'] },
  cancel_redemption: { args: async (f, t) => ({ redemptionId: (await redemption(f, t)).id }), own: ['code'] },
  // Segments and campaigns
  create_customer_segment: { args: async (f, t) => ({ name: `Regulars ${t}`, customerIds: [f.ids.customerId] }) },
  update_customer_segment: {
    args: async (f, t) => ({
      segmentId: (await f.tool('create_customer_segment', { name: `Tagged ${t}`, rules: { tag: 'vip' } })).id,
      name: `Tagged again ${t}`,
    }),
  },
  tag_customers: { args: async (f, t) => ({ customerIds: [(await customer(f, t)).id], add: ['vip'] }) },
  create_campaign: {
    args: async (f, t) => ({
      name: `Spring ${t}`,
      channel: 'email',
      recipientSource: 'segment',
      segmentId: f.ids.segmentId,
      channelConfig: { subject: 'Spring', html: '<p>New</p>' },
    }),
  },
  update_campaign: { args: async (f, t) => ({ campaignId: (await campaign(f, t)).id, name: `Renamed ${t}` }) },
  delete_campaign: { args: async (f, t) => ({ campaignId: (await campaign(f, t)).id }) },
  pause_campaign: { args: async (f, t) => ({ campaignId: (await campaign(f, t, { status: 'SCHEDULED', scheduledAt: future(30) })).id }) },
  resume_campaign: {
    args: async (f, t) => {
      const made = await campaign(f, t, { status: 'SCHEDULED', scheduledAt: future(30) });
      await f.tool('pause_campaign', { campaignId: made.id });
      return { campaignId: made.id };
    },
    own: ['deliveries', 'startedAt'],
  },
  cancel_campaign: { args: async (f, t) => ({ campaignId: (await campaign(f, t)).id }) },
  send_test_campaign: { args: async (f, t) => ({ campaignId: (await campaign(f, t)).id, to: [`test.${t}@parity.example`] }) },
};
