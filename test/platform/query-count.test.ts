import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../facades/rest/manifests/index.ts';
import { accessOf } from '../../subgraphs/kernel/access.ts';
import { dayFromNow } from '../support/booking.ts';
import { http, uniqueEmail } from '../support/client.ts';
import { bearer, signInCustomer, signupCompany, upgradeToStarter, type Company } from '../support/fixtures.ts';
import { callTool, mcpClient } from '../support/mcp.ts';
import { eventually } from '../support/eventually.ts';
import { statementsOf } from '../support/sql.ts';

/**
 * Reads never run one query per list item (ARCHITECTURE, rule 8): every REST GET route of the
 * manifests and every read tool of the MCP registry (list_*, get_*) sends as many SQL statements
 * for a company with 2 of everything as for one with 12. The routes and tools come from the
 * manifests and the registry: a new one fails here until the fixtures below can call it.
 */

const SMALL = 2;
/** Lists that come from code, not the database: the payment methods are the configured providers. */
const FROM_CODE = new Set(['GET /customer-portal/shop/payment-methods', 'list_payment_methods']);
const LARGE = 12;
const V6 = '/v6';

/** A company with `n` of everything a read lists, and what the routes and tools need to name. */
interface Shop {
  n: number;
  company: Company;
  merchant: Client;
  customerToken: string;
  serviceId: string;
  bookingId: string;
  postSlug: string;
  pageSlug: string;
  eventId: string;
  eventSlug: string;
  registrationId: string;
  surveyId: string;
  surveySlug: string;
  invitationToken: string;
  domain: string;
  date: string;
  productId: string;
  promotionId: string;
  customerId: string;
  giftId: string;
  productSlug: string;
  orderId: string;
  campaignId: string;
  conversationId: string;
}

/** The date slots and bookings are on: a fixed weekday a few days ahead. */
const DATE = dayFromNow(10);
const WEEKDAY = new Date(`${DATE}T12:00:00Z`).getUTCDay();
const inDays = (d: number, h = 10) => new Date(Date.UTC(2031, 0, 1 + d, h)).toISOString();

async function shop(n: number): Promise<Shop> {
  const company = await signupCompany(`Counted ${n}`);
  // Twenty staff members are more than the free plan has.
  await upgradeToStarter(company.apiKey);
  const merchant = await mcpClient(company.apiKey);
  const h = { 'x-company-id': company.companyId };
  const P = `${V6}/customer-portal`;

  // Booking: n staff (working the slot date), n resources, n services that use all of them.
  const category = await callTool(merchant, 'create_service_category', { name: 'Hair' });
  const staff: string[] = [];
  const resources: string[] = [];
  for (let i = 0; i < n; i++) {
    const member = await callTool(merchant, 'create_staff_member', { name: `Stylist ${i}`, email: `stylist${i}@counted.example` });
    await callTool(merchant, 'set_staff_availability', { memberId: member.id, dayOfWeek: WEEKDAY, startTime: '09:00', endTime: '17:00' });
    staff.push(member.id);
    resources.push((await callTool(merchant, 'create_resource', { name: `Chair ${i}`, type: 'chair' })).id);
  }
  let serviceId = '';
  for (let i = 0; i < n; i++) {
    const service = await callTool(merchant, 'create_service', {
      name: `Service ${i}`,
      durationMinutes: 60,
      price: '30',
      capacity: 1,
      categoryId: category.id,
      staffIds: staff,
      resourceIds: resources,
      requiresResource: false,
      minimumNoticeMinutes: 0,
    });
    serviceId ||= service.id;
  }

  // A signed-in customer with n bookings (made by the merchant with the customer's verified email).
  const customer = await signInCustomer(company.companyId);
  const slots = (await callTool(merchant, 'get_available_slots', { serviceId, startDate: DATE, endDate: DATE, limit: 100 })).items;
  const offers = slots.flatMap((s: any) => s.staff.map((m: any) => ({ start: s.start, staffId: m.id })));
  let bookingId = '';
  for (let i = 0; i < n; i++) {
    const booking = await callTool(merchant, 'create_booking', {
      serviceId,
      slotTime: offers[i].start,
      staffId: offers[i].staffId,
      customer: { name: 'Counted Customer', email: customer.email },
    });
    bookingId ||= booking.id;
  }

  // Content: n categories, n published posts, n published pages in a menu, n events, one with n registrations.
  const categories = [];
  for (let i = 0; i < n; i++) categories.push(await callTool(merchant, 'create_category', { name: `Topic ${i}` }));
  let postSlug = '';
  for (let i = 0; i < n; i++) {
    const post = await callTool(merchant, 'create_post', {
      title: `Post ${i}`,
      categoryId: categories[i].id,
      blocks: [{ type: 'paragraph', data: { text: 'Hello' } }],
    });
    await callTool(merchant, 'update_post', { postId: post.id, status: 'published' });
    postSlug ||= post.slug;
  }
  const pages = [];
  for (let i = 0; i < n; i++) pages.push(await callTool(merchant, 'create_page', { title: `Page ${i}`, status: 'published' }));
  await callTool(merchant, 'set_menu', { location: 'header', items: pages.map((p) => ({ label: p.title, pageId: p.id })) });
  const events = [];
  for (let i = 0; i < n; i++)
    events.push(
      await callTool(merchant, 'create_event', { title: `Event ${i}`, startsAt: inDays(i), endsAt: inDays(i, 12), capacity: 100, status: 'published' }),
    );
  let registrationId = '';
  for (let i = 0; i < n; i++) {
    const reg = await http(`${P}/event-registrations`, { body: { eventId: events[0].id, name: `Guest ${i}`, email: uniqueEmail('guest') }, headers: h });
    expect(reg.status).toBe(201);
    registrationId ||= reg.body.data.id;
  }
  // A customer's own registrations mark the events they are registered for.
  await http(`${P}/event-registrations`, { body: { eventId: events[0].id, name: 'Me' }, headers: { ...h, ...bearer(customer.token) } });

  // A published survey with n responses and an invitation; n contact inquiries; n API keys.
  const survey = await callTool(merchant, 'create_survey', {
    title: 'Counted survey',
    status: 'published',
    questions: [
      { id: 'rating', type: 'rating', label: 'How was it?', required: true },
      { id: 'again', type: 'single_choice', label: 'Again?', options: ['yes', 'no'] },
    ],
  });
  for (let i = 0; i < n; i++)
    expect((await http(`${P}/surveys/${survey.id}/responses`, { body: { answers: { rating: 1 + (i % 5), again: 'yes' } }, headers: h })).status).toBe(201);
  const [invitation] = (await callTool(merchant, 'create_survey_invitations', { surveyId: survey.id, recipients: [customer.customerId] })).result;
  for (let i = 0; i < n; i++)
    expect((await http(`${P}/contact`, { body: { name: `Writer ${i}`, email: uniqueEmail('writer'), message: 'Hello there' }, headers: h })).status).toBe(201);
  for (let i = 1; i < n; i++) await callTool(merchant, 'create_api_key', { name: `Key ${i}` });
  const domain = `shop-${n}-${Date.now()}.counted.example`;
  await callTool(merchant, 'add_storefront_domain', { domain });

  // Commerce: n categories, brands, collections and active products (two variants each, in every
  // collection), n shipping methods, and n orders of the signed-in customer.
  const productCategories = [];
  const brands = [];
  const collections = [];
  for (let i = 0; i < n; i++) {
    productCategories.push(await callTool(merchant, 'create_product_category', { name: `Shelf ${i}` }));
    brands.push(await callTool(merchant, 'create_brand', { name: `Maker ${i}` }));
    collections.push(await callTool(merchant, 'create_collection', { name: `Season ${i}` }));
  }
  const products = [];
  for (let i = 0; i < n; i++) {
    products.push(
      await callTool(merchant, 'create_product', {
        name: `Mug ${i}`,
        price: '12.50',
        status: 'active',
        categoryId: productCategories[i].id,
        brandId: brands[i].id,
        collectionIds: collections.map((c) => c.id),
        variants: [
          { options: [{ name: 'size', value: 'S' }], price: '12.50', stock: 50, trackInventory: true },
          { options: [{ name: 'size', value: 'L' }], price: '14.50', stock: 50, trackInventory: true },
        ],
      }),
    );
  }
  for (let i = 0; i < n; i++) await callTool(merchant, 'create_shipping_method', { name: `Courier ${i}`, kind: 'FLAT_RATE', price: '4.90' });
  const promotions = [];
  for (let i = 0; i < n; i++)
    promotions.push(
      await callTool(merchant, 'create_promotion', {
        name: `Promo ${i}`,
        code: `PROMO${i}`,
        type: 'percentage',
        value: '10',
        bookingEnabled: true,
        onlineEnabled: true,
        posEnabled: true,
        usageLimit: 100,
      }),
    );
  for (let i = 0; i < n; i++) await callTool(merchant, 'create_membership_tier', { name: `Tier ${i}`, threshold: i * 100 });
  for (let i = 0; i < n; i++) await callTool(merchant, 'adjust_points', { customerId: customer.customerId, points: 10, reason: `Gift ${i}` });
  const gifts = [];
  for (let i = 0; i < n; i++) gifts.push(await callTool(merchant, 'create_gift_offer', { title: `Gift ${i}`, pointsCost: 1, stock: 100, status: 'active' }));
  for (let i = 0; i < n; i++)
    expect((await http(`${P}/gifts/offers/${gifts[i].id}/redeem`, { body: {}, headers: { ...h, ...bearer(customer.token) } })).status).toBe(201);
  // Campaigns: n customers in n segments, n draft campaigns and one sent to all n.
  const audience: string[] = [];
  for (let i = 0; i < n; i++) {
    const member = await http(`${P}/auth/register`, { body: { name: `Reader ${i}`, email: uniqueEmail('reader') }, headers: h });
    audience.push(member.body.data.member.id);
  }
  const segments: { id: string }[] = [];
  for (let i = 0; i < n; i++) segments.push(await callTool(merchant, 'create_customer_segment', { name: `Segment ${i}`, customerIds: audience }));
  await eventually(async () => expect((await callTool(merchant, 'preview_segment', { segmentId: segments[0].id })).count).toBe(n), { tries: 300 });
  const campaignOf = (name: string) =>
    callTool(merchant, 'create_campaign', {
      name,
      channel: 'email',
      recipientSource: 'segment',
      segmentId: segments[0].id,
      channelConfig: { subject: 'Hi', html: '<p>Hi {{firstName}}</p>' },
    });
  for (let i = 1; i < n; i++) await campaignOf(`Draft ${i}`);
  const campaign = await campaignOf('Sent');
  expect((await http(`${V6}/merchant/campaigns/${campaign.id}/send`, { method: 'POST', headers: bearer(company.apiKey) })).status).toBe(202);
  await eventually(async () => expect((await callTool(merchant, 'get_campaign', { campaignId: campaign.id })).status).toBe('SENT'), {
    tries: 600,
    intervalMs: 100,
  });
  // n conversations (one with each reader), one of n messages, and n WhatsApp templates.
  let conversationId = '';
  for (let i = 0; i < n; i++) {
    await callTool(merchant, 'send_message', { customerId: audience[i], channel: 'email', text: `Hello ${i}` });
    conversationId = (await callTool(merchant, 'send_message', { customerId: customer.customerId, channel: 'email', text: `Note ${i}` })).conversationId;
    await callTool(merchant, 'create_message_template', { name: `template_${i}`, language: 'en', category: 'utility', body: 'Hi {{1}}' });
  }

  let orderId = '';
  for (let i = 0; i < n; i++) {
    const order = await http(`${P}/shop/orders`, {
      body: {
        items: [
          { variantId: products[i].variants[0].id, quantity: 1 },
          { variantId: products[i].variants[1].id, quantity: 2 },
        ],
      },
      headers: { ...h, ...bearer(customer.token) },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    orderId ||= order.body.data.id;
  }

  return {
    n,
    company,
    merchant,
    customerToken: customer.token,
    customerId: customer.customerId,
    serviceId,
    bookingId,
    postSlug,
    pageSlug: pages[0].slug,
    eventId: events[0].id,
    eventSlug: events[0].slug,
    registrationId,
    surveyId: survey.id,
    surveySlug: survey.slug,
    invitationToken: invitation.token,
    domain,
    date: DATE,
    productId: products[0].id,
    productSlug: products[0].slug,
    orderId,
    promotionId: promotions[0].id,
    giftId: gifts[0].id,
    campaignId: campaign.id,
    conversationId,
  };
}

/** What a path parameter is, by the segment before it (`/services/:id` → a service id). */
const PATH_PARAMS: Record<string, (s: Shop) => string> = {
  'services/:id': (s) => s.serviceId,
  'bookings/:id': (s) => s.bookingId,
  'event-registrations/:id': (s) => s.registrationId,
  'pages/:slug': (s) => s.pageSlug,
  'posts/:slug': (s) => s.postSlug,
  'events/:slug': (s) => s.eventSlug,
  'surveys/:slug': (s) => s.surveySlug,
  'menus/:location': () => 'header',
  'token/:token': (s) => s.invitationToken,
  'products/:slug': (s) => s.productSlug,
  'orders/:orderId': (s) => s.orderId,
  'offers/:id': (s) => s.giftId,
};

/** Query strings of the routes whose field takes required arguments besides the path's. */
const QUERIES: Record<string, (s: Shop) => string> = {
  '/customer-portal/services/:id/slots': (s) => `date=${s.date}`,
  '/customer-portal/storefront/resolve-domain': (s) => `domain=${s.domain}`,
};

/** Arguments of the read tools, by name: every required one must be here. */
const TOOL_ARGS: Record<string, (s: Shop) => unknown> = {
  serviceId: (s) => s.serviceId,
  eventId: (s) => s.eventId,
  productId: (s) => s.productId,
  orderId: (s) => s.orderId,
  promotionId: (s) => s.promotionId,
  campaignId: (s) => s.campaignId,
  conversationId: (s) => s.conversationId,
  customerId: (s) => s.customerId,
  surveyId: (s) => s.surveyId,
  slug: (s) => s.postSlug,
  startDate: (s) => s.date,
  endDate: (s) => s.date,
};

function routeUrl(path: string, s: Shop): string {
  const filled = path.replace(/([a-z-]+)\/:([a-zA-Z]+)/g, (whole, segment: string, name: string) => {
    const value = PATH_PARAMS[`${segment}/:${name}`];
    if (!value) throw new Error(`query-count: no fixture for ${whole} in ${path}; add it to PATH_PARAMS`);
    return `${segment}/${encodeURIComponent(value(s))}`;
  });
  const query = QUERIES[path]?.(s);
  return `${V6}${filled}${query ? `?${query}` : ''}`;
}

/** Headers of a route by the access its field declares: the tenant, a customer, the merchant's key. */
function routeHeaders(field: string, s: Shop): Record<string, string> {
  const tenant = { 'x-company-id': s.company.companyId };
  switch (accessOf(field)) {
    case 'customer':
    case 'optionalCustomer':
      return { ...tenant, ...bearer(s.customerToken) };
    case 'merchant':
      return bearer(s.company.apiKey);
    case 'none':
    case 'magic':
      return {};
    default:
      return tenant;
  }
}

/** The entries of every list in an answer, nested ones included: what grows with the company. */
function entries(value: unknown): number {
  if (Array.isArray(value)) return value.length + value.reduce((n: number, v) => n + entries(v), 0);
  if (value && typeof value === 'object') return Object.values(value).reduce((n: number, v) => n + entries(v), 0);
  return 0;
}

/** SQL statements of one call (the outbox's and the job queue's own polling left out). */
async function statements(call: () => Promise<unknown>): Promise<number> {
  return (await statementsOf(call)).filter((sql) => !/pgboss/i.test(sql)).length;
}

interface Measured {
  name: string;
  statements: [number, number];
  entries: [number, number];
}

describe('SQL statements of every read route and tool do not grow with the lists', () => {
  let small: Shop;
  let large: Shop;
  beforeAll(async () => {
    small = await shop(SMALL);
    large = await shop(LARGE);
  }, 240_000);

  const measured: Measured[] = [];

  it('REST: every GET route of the manifests', async () => {
    const routes = ROUTES.filter((r) => r.method === 'GET');
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      const sizes: number[] = [];
      const counts: number[] = [];
      for (const s of [small, large]) {
        const call = async () => {
          const res = await http(routeUrl(route.path, s), { headers: routeHeaders(route.field, s) });
          if (res.status !== 200) throw new Error(`GET ${route.path}: ${res.status} ${JSON.stringify(res.body)}`);
          return res.body.data;
        };
        sizes.push(entries(await call()));
        counts.push(await statements(call));
      }
      measured.push({ name: `GET ${route.path}`, statements: counts as [number, number], entries: sizes as [number, number] });
    }
    report(measured.filter((m) => m.name.startsWith('GET')));
    for (const m of measured) {
      expect.soft(m.statements[1], `${m.name}: ${m.statements[0]} statements for the small company, ${m.statements[1]} for the large`).toBe(m.statements[0]);
      if (!FROM_CODE.has(m.name)) expect.soft(m.statements[0], `${m.name} reads something`).toBeGreaterThan(0);
    }
    // The lists really differ in size: a fixture that stopped filling a list would prove nothing.
    for (const path of [
      '/services',
      '/services/:id/staff',
      '/services/:id/resources',
      '/services/:id/slots',
      '/bookings',
      '/cms/pages',
      '/cms/posts',
      '/cms/categories',
      '/cms/menus/:location',
      '/events',
    ]) {
      const m = measured.find((x) => x.name === `GET /customer-portal${path}`)!;
      expect.soft(m.entries[1], `${m.name} lists more for the large company`).toBeGreaterThan(m.entries[0]);
    }
  }, 120_000);

  it('MCP: every list_* and get_* tool of the registry', async () => {
    const { tools } = await small.merchant.listTools();
    const reads = tools.filter((t) => /^(list|get)_/.test(t.name));
    expect(reads.length).toBeGreaterThan(8);
    const results: Measured[] = [];
    for (const tool of reads) {
      expect(tool.annotations?.readOnlyHint, `${tool.name} is a read`).toBe(true);
      const required = (tool.inputSchema.required ?? []) as string[];
      const sizes: number[] = [];
      const counts: number[] = [];
      for (const s of [small, large]) {
        // Whole lists (a page holds them all), so the large company's are longer.
        const args: Record<string, unknown> = 'limit' in (tool.inputSchema.properties ?? {}) ? { limit: 100 } : {};
        for (const name of required) {
          if (!TOOL_ARGS[name]) throw new Error(`query-count: no fixture for ${tool.name}'s argument ${name}; add it to TOOL_ARGS`);
          args[name] = TOOL_ARGS[name](s);
        }
        const call = () => callTool(s.merchant, tool.name, args);
        sizes.push(entries(await call()));
        counts.push(await statements(call));
      }
      results.push({ name: tool.name, statements: counts as [number, number], entries: sizes as [number, number] });
    }
    report(results);
    for (const m of results) {
      expect.soft(m.statements[1], `${m.name}: ${m.statements[0]} statements for the small company, ${m.statements[1]} for the large`).toBe(m.statements[0]);
      if (FROM_CODE.has(m.name)) continue;
      expect.soft(m.statements[0], `${m.name} reads something`).toBeGreaterThan(0);
      if (m.name.startsWith('list_') || m.name === 'get_available_slots' || m.name === 'get_service_detail') {
        expect.soft(m.entries[1], `${m.name} lists more for the large company`).toBeGreaterThan(m.entries[0]);
      }
    }
  }, 120_000);
});

function report(rows: Measured[]) {
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(
    `[query-count] statements (entries) with ${SMALL} and ${LARGE} of everything\n` +
      rows.map((r) => `  ${r.name.padEnd(width)}  ${r.statements[0]} (${r.entries[0]})  ${r.statements[1]} (${r.entries[1]})`).join('\n'),
  );
}
