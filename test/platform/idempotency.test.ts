import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { graphql, http } from '../support/client.ts';
import { bearer, signInCustomer } from '../support/fixtures.ts';
import { dayFromNow, setupSalon, type Salon } from '../support/booking.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';

const P = '/v6/customer-portal';
const newKey = () => `key-${randomUUID()}`;

async function slots(salon: Salon, days = 4) {
  const res = await http(`${P}/services/${salon.service.id}/slots?date=${dayFromNow(days)}`, { headers: { 'x-company-id': salon.company.companyId } });
  return res.body.data.items as { start: string; end: string }[];
}

const guest = (salon: Salon, slot: { start: string; end: string }, extra: Record<string, unknown> = {}) => ({
  serviceId: salon.service.id,
  occurrenceStart: slot.start,
  occurrenceEnd: slot.end,
  customerName: 'Idem Ida',
  customerPhone: '+15550100300',
  ...extra,
});

const bookGuest = (salon: Salon, body: unknown, key: string, headers: Record<string, string> = {}) =>
  http(`${P}/bookings/guest`, { body, headers: { 'x-company-id': salon.company.companyId, 'idempotency-key': key, ...headers } });

/** Every booking of the salon on a day, as the merchant sees them. */
const bookingsOn = async (salon: Salon, days = 4) => (await callTool(salon.merchant, 'list_bookings', { date: dayFromNow(days) })).items as { id: string }[];

describe('Idempotency-Key', () => {
  it('replays a repeated guest booking POST instead of booking twice', async () => {
    const salon = await setupSalon();
    const [slot] = await slots(salon);
    const key = newKey();
    const first = await bookGuest(salon, guest(salon, slot), key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same body written in another key order is the same request.
    const { customerPhone, ...rest } = guest(salon, slot);
    const again = await bookGuest(salon, { customerPhone, ...rest }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await bookingsOn(salon)).map((b) => b.id)).toEqual([first.body.data.id]);
  });

  it('runs one of five parallel requests with one key; the others replay it or are told it is in use', async () => {
    const salon = await setupSalon();
    const [slot] = await slots(salon);
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 5 }, () => bookGuest(salon, guest(salon, slot), key)));
    const ran = answers.filter((a) => a.status === 201 && !a.headers.get('idempotent-replayed'));
    expect(ran).toHaveLength(1);
    for (const a of answers) {
      if (a.status === 201) expect(a.body).toEqual(ran[0].body);
      else expect([a.status, a.body.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE']);
    }
    expect(await bookingsOn(salon)).toHaveLength(1);
  });

  it('refuses the key for a different request with 422', async () => {
    const salon = await setupSalon();
    const [a, b] = await slots(salon);
    const key = newKey();
    expect((await bookGuest(salon, guest(salon, a), key)).status).toBe(201);
    const reused = await bookGuest(salon, guest(salon, b), key);
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ success: false, error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect(await bookingsOn(salon)).toHaveLength(1);
  });

  it('keeps keys apart per company and per credential', async () => {
    // One after the other: two signups of one name at once may collide on the company slug.
    const one = await setupSalon();
    const two = await setupSalon();
    const key = newKey();
    const [slotOne, otherSlotOne] = await slots(one);
    const [slotTwo] = await slots(two);
    expect((await bookGuest(one, guest(one, slotOne), key)).status).toBe(201);
    const elsewhere = await bookGuest(two, guest(two, slotTwo), key);
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.headers.get('idempotent-replayed')).toBeNull();
    // A signed-in customer of the first company has a key space of their own (else: 422).
    const customer = await signInCustomer(one.company.companyId);
    const signedIn = await bookGuest(one, guest(one, otherSlotOne), key, bearer(customer.token));
    expect(signedIn.status).toBe(201);
    expect(await bookingsOn(one)).toHaveLength(2);
  });

  it('replays an error answer as it was', async () => {
    const salon = await setupSalon();
    const [slot] = await slots(salon);
    const key = newKey();
    const body = guest(salon, slot, { serviceId: randomUUID() });
    const first = await bookGuest(salon, body, key);
    expect(first.status).toBe(404);
    const again = await bookGuest(salon, body, key);
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect({ ...again.body.error, requestId: undefined }).toEqual({ ...first.body.error, requestId: undefined });
  });

  it('keeps nothing for a request refused before it ran (as Stripe does): the key stays free', async () => {
    const salon = await setupSalon();
    const [slot] = await slots(salon);
    const key = newKey();
    const invalid = await bookGuest(salon, guest(salon, slot, { customerPhone: undefined }), key);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.field).toBe('customerPhone');
    const valid = await bookGuest(salon, guest(salon, slot), key);
    expect(valid.status).toBe(201);
    expect(valid.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses an invalid key with 400 naming Idempotency-Key', async () => {
    const salon = await setupSalon();
    const [slot] = await slots(salon);
    const rest = await bookGuest(salon, guest(salon, slot), 'k'.repeat(256));
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'Idempotency-Key' } });
    const gql = await graphql(
      'mutation { createServiceCategory(input: { name: "X" }) { id } }',
      {},
      { ...bearer(salon.company.apiKey), 'idempotency-key': '' },
    );
    expect(gql.status).toBe(400);
    expect(gql.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'Idempotency-Key' });
    expect(await bookingsOn(salon)).toHaveLength(0);
  });

  it('replays a GraphQL mutation at /graphql and ignores the key on a query', async () => {
    const salon = await setupSalon();
    const [a, b] = await slots(salon);
    const mutation = 'mutation Book($input: GuestBookingInput!) { createGuestBooking(input: $input) { id status } }';
    const headers = { 'x-company-id': salon.company.companyId, 'idempotency-key': newKey() };
    // Not ASCII: the body the gateway reads again is the text read here.
    const input = guest(salon, a, { customerName: 'Zoë Ünal' });
    const first = await graphql(mutation, { input }, headers);
    expect(first.status).toBe(200);
    expect(first.body.data.createGuestBooking.status).toBe('CONFIRMED');
    const again = await graphql(mutation, { input }, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const reused = await graphql(mutation, { input: guest(salon, b) }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body.errors?.[0].extensions?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await bookingsOn(salon)).toHaveLength(1);
    const query = await graphql('{ bookableServices { id } }', {}, headers);
    expect(query.status).toBe(200);
    expect(query.headers.get('idempotent-replayed')).toBeNull();
  });

  it('makes an MCP mutating tool call with idempotencyKey run once', async () => {
    const salon = await setupSalon();
    const [a, b] = await slots(salon);
    const idempotencyKey = newKey();
    const args = { serviceId: salon.service.id, slotTime: a.start, customer: { name: 'Agent Ann' }, idempotencyKey };
    const first = await callTool(salon.merchant, 'create_booking', args);
    const again = await callTool(salon.merchant, 'create_booking', args);
    expect(again).toEqual(first);
    expect((await bookingsOn(salon)).map((x) => x.id)).toEqual([first.id]);
    expect((await toolError(salon.merchant, 'create_booking', { ...args, slotTime: b.start })).code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Another agent (credential) of the company is not answered with this one's result.
    const key = await callTool(salon.merchant, 'create_api_key', { name: 'second agent' });
    const other = await mcpClient(key.key);
    expect((await toolError(other, 'create_booking', args)).code).toBe('SLOT_TAKEN');
  });

  it('offers idempotencyKey on mutating tools only', async () => {
    const salon = await setupSalon();
    const { tools } = await salon.merchant.listTools();
    const byName = new Map(tools.map((t) => [t.name, t.inputSchema as any]));
    expect(byName.get('create_booking').properties.idempotencyKey).toMatchObject({ type: 'string', maxLength: 255, description: expect.any(String) });
    expect(byName.get('create_booking').required).not.toContain('idempotencyKey');
    expect(byName.get('list_bookings').properties.idempotencyKey).toBeUndefined();
    expect(byName.get('get_company').properties.idempotencyKey).toBeUndefined();
  });

  it('documents the header on POST operations', async () => {
    const doc = (await http('/openapi/connect-v6.openapi.json')).body;
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
    expect(doc.paths['/v6/customer-portal/bookings/guest'].post.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(doc.paths['/v6/customer-portal/services'].get.parameters ?? []).not.toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
  });
});
