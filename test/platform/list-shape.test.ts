/**
 * One shape for every list (ARCHITECTURE rule 5): a list answers `data.items` with
 * `data.pagination { page, limit, total, totalPages, hasNextPage }`, in the OpenAPI document and in
 * the answers, storefront and merchant alike. A list operation is a GET that takes the list
 * parameter `limit`, or one whose answer is an array (there must be none).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { http, uniqueEmail } from '../support/client.ts';
import { dayFromNow, setupSalon, type Salon } from '../support/booking.ts';
import { bearer, signInCustomer } from '../support/fixtures.ts';
import { callTool } from '../support/mcp.ts';

type Schema = Record<string, any>;

/** The routes that answered a bare array before (issue 43): each must be among the list operations, with items in its answer. */
const ONCE_BARE = [
  'GET /v6/customer-portal/shop/shipping-methods',
  'GET /v6/customer-portal/shop/payment-methods',
  'GET /v6/customer-portal/membership-tiers',
  'GET /v6/customer-portal/gifts/offers',
  'GET /v6/merchant/shop/shipping-methods',
  'GET /v6/merchant/shop/payment-methods',
  'GET /v6/merchant/loyalty/tiers',
  'GET /v6/merchant/services/{serviceId}/slots',
];

/**
 * Resources that hold a page of something else rather than being a list: `limit` pages the named
 * property (a survey's results and its responses; a customer's loyalty and its ledger).
 */
const EMBEDDED_PAGE: Record<string, string> = {
  'GET /v6/merchant/surveys/{surveyId}/responses': 'responses',
  'GET /v6/merchant/loyalty/customers/{customerId}': 'ledger',
  'GET /v6/merchant/messaging/conversations/{conversationId}': 'messages',
};

const PAGINATION = ['page', 'limit', 'total', 'totalPages', 'hasNextPage'];

describe('every list operation of the OpenAPI document', () => {
  let doc: Schema;
  let salon: Salon;
  let customerToken: string;
  const values: Record<string, string> = {};

  const deref = (schema: Schema | undefined): Schema => {
    let s = schema ?? {};
    while (s.$ref) s = doc.components.schemas[(s.$ref as string).split('/').pop()!];
    return s;
  };
  const dataOf = (op: Schema): Schema => deref(deref(op.responses?.['200']?.content?.['application/json']?.schema).properties?.data);

  /** The GET operations, by "GET path", with their operation. */
  const gets = () =>
    Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(([path, ops]) => (ops.get ? [{ name: `GET ${path}`, path, op: ops.get }] : []));
  const listOperations = () =>
    gets().filter(({ op }) => (op.parameters ?? []).some((p: Schema) => p.name === 'limit' && p.in === 'query') || dataOf(op).type === 'array');

  beforeAll(async () => {
    doc = (await http('/openapi/connect-v6.openapi.json')).body;
    salon = await setupSalon();
    const m = salon.merchant;
    // Something in each list the routes above show, so their items are really there.
    await callTool(m, 'create_shipping_method', { name: 'Parcel', kind: 'FLAT_RATE', price: '4.90' });
    await callTool(m, 'create_membership_tier', { name: 'Gold', threshold: 100 });
    await callTool(m, 'create_gift_offer', { title: 'Coffee', pointsCost: 10, status: 'active' });
    const customer = await signInCustomer(salon.company.companyId, uniqueEmail('lister'));
    customerToken = customer.token;
    const segment = await callTool(m, 'create_customer_segment', { name: 'Everyone', customerIds: [customer.customerId] });
    Object.assign(values, {
      id: salon.service.id,
      serviceId: salon.service.id,
      customerId: customer.customerId,
      eventId: (
        await callTool(m, 'create_event', {
          title: 'Open day',
          startsAt: '2031-01-01T10:00:00Z',
          endsAt: '2031-01-01T12:00:00Z',
          capacity: 10,
          status: 'published',
        })
      ).id,
      surveyId: (await callTool(m, 'create_survey', { title: 'How was it', status: 'published', questions: [{ id: 'r', type: 'rating', label: 'Rating' }] }))
        .id,
      campaignId: (
        await callTool(m, 'create_campaign', {
          name: 'Hi',
          channel: 'email',
          recipientSource: 'segment',
          segmentId: segment.id,
          channelConfig: { subject: 'Hi', html: '<p>Hi</p>' },
        })
      ).id,
      conversationId: (await callTool(m, 'send_message', { customerId: customer.customerId, channel: 'email', text: 'Hello' })).conversationId,
      date: dayFromNow(3),
      startDate: dayFromNow(3),
      endDate: dayFromNow(4),
    });
  });

  it('each declares data.items and data.pagination { page, limit, total, totalPages, hasNextPage }; no GET answers a bare array', () => {
    const lists = listOperations();
    expect(lists.map((l) => l.name)).toEqual(expect.arrayContaining(ONCE_BARE));
    for (const { name, op } of gets()) expect(dataOf(op).type, `${name} answers a bare array`).not.toBe('array');
    for (const { name, op } of lists) {
      const data = dataOf(op);
      const page = EMBEDDED_PAGE[name] ? deref(data.properties?.[EMBEDDED_PAGE[name]]) : data;
      expect(page.type, name).toBe('object');
      expect(page.required, name).toEqual(expect.arrayContaining(['items', 'pagination']));
      expect(deref(page.properties?.items).type, `${name}: items`).toBe('array');
      const pagination = deref(page.properties?.pagination);
      expect(pagination.required, `${name}: pagination`).toEqual(expect.arrayContaining(PAGINATION));
      expect(Object.keys(pagination.properties ?? {}).sort(), `${name}: pagination`).toEqual([...PAGINATION].sort());
    }
  });

  it('each answers so when called, and pages by limit', async () => {
    const lists = listOperations();
    expect(lists.length).toBeGreaterThanOrEqual(40);
    for (const { name, path, op } of lists) {
      const params: Schema[] = (op.parameters ?? []).filter((p: Schema) => p.name);
      const url = (limit?: number) => {
        const filled = path.replace(/\{(\w+)\}/g, (_, p: string) => {
          if (!values[p]) throw new Error(`list-shape: no value for {${p}} of ${name}`);
          return encodeURIComponent(values[p]);
        });
        const query = new URLSearchParams();
        for (const p of params.filter((x) => x.in === 'query' && x.required)) {
          if (!values[p.name]) throw new Error(`list-shape: no value for the required ${p.name} of ${name}`);
          query.set(p.name, values[p.name]);
        }
        if (limit) query.set('limit', String(limit));
        return `${filled}${[...query].length ? `?${query}` : ''}`;
      };
      const security: string[] = (op.security ?? []).flatMap((s: Schema) => Object.keys(s));
      const headers = security.includes('apiKey')
        ? bearer(salon.company.apiKey)
        : { 'x-company-id': salon.company.companyId, ...(security.includes('customerToken') ? bearer(customerToken) : {}) };
      for (const limit of [undefined, 1]) {
        const res = await http(url(limit), { headers });
        expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
        const page = EMBEDDED_PAGE[name] ? res.body.data[EMBEDDED_PAGE[name]] : res.body.data;
        expect(Array.isArray(page.items), name).toBe(true);
        expect(Object.keys(page.pagination).sort(), name).toEqual([...PAGINATION].sort());
        const { page: number, limit: size, total, totalPages, hasNextPage } = page.pagination;
        expect([number, size, total, totalPages].every(Number.isInteger), name).toBe(true);
        expect(number, name).toBe(1);
        // The limit asked for, or the list's default (20 for most; whole small lists such as pages take more).
        if (limit) expect(size, name).toBe(limit);
        else expect(size >= 1 && size <= 100, `${name}: default limit ${size}`).toBe(true);
        expect(page.items.length, name).toBeLessThanOrEqual(size);
        expect(page.items.length, name).toBe(Math.min(size, total));
        expect(totalPages, name).toBe(Math.max(1, Math.ceil(total / size)));
        expect(hasNextPage, name).toBe(totalPages > 1);
        if (ONCE_BARE.includes(name)) expect(page.items.length, `${name} lists what the company has`).toBeGreaterThan(0);
      }
    }
  });
});
