import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ERROR_REASONS, ERROR_STATUS } from '../../subgraphs/kernel/errors.ts';
import { dayFromNow, setupSalon } from '../support/booking.ts';
import { graphql, http } from '../support/client.ts';
import { bearer, signInCustomer, signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';

const P = '/v6/customer-portal';

async function bookAsCustomer(companyId: string, serviceId: string, token: string, email: string, day: string, index = 0) {
  const slots = (await http(`${P}/services/${serviceId}/slots?date=${day}`, { headers: { 'x-company-id': companyId } })).body.data.items;
  const slot = slots[index];
  const booked = await http(`${P}/bookings/guest`, {
    body: { serviceId, occurrenceStart: slot.start, occurrenceEnd: slot.end, customerName: 'Cara', customerPhone: '+15550100300', customerEmail: email },
    headers: { 'x-company-id': companyId, ...bearer(token) },
  });
  expect(booked.status).toBe(201);
  return { booking: booked.body.data, slots };
}

describe('state transitions through the public interface', () => {
  it('REST: a cancelled booking cannot be cancelled or rescheduled (409 INVALID_STATE_TRANSITION with from, to, allowed)', async () => {
    const { company, service } = await setupSalon();
    const me = await signInCustomer(company.companyId);
    const { booking, slots } = await bookAsCustomer(company.companyId, service.id, me.token, me.email, dayFromNow(15));
    expect((await http(`${P}/bookings/${booking.id}/cancel`, { body: {}, headers: bearer(me.token) })).status).toBe(200);

    const again = await http(`${P}/bookings/${booking.id}/cancel`, { body: {}, headers: bearer(me.token) });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { from: 'CANCELLED', to: 'CANCELLED', allowed: [] } });
    const moved = await http(`${P}/bookings/${booking.id}/reschedule`, {
      body: { occurrenceStart: slots[1].start, occurrenceEnd: slots[1].end },
      headers: bearer(me.token),
    });
    expect(moved.status).toBe(409);
    expect(moved.body.error).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { from: 'CANCELLED', to: 'CONFIRMED', allowed: [] } });

    // Filters take the state in any case, as before it was an enum; an unknown one names the field.
    expect((await http(`${P}/bookings?status=cancelled`, { headers: bearer(me.token) })).body.data.items.map((b: any) => b.id)).toEqual([booking.id]);
    expect((await http(`${P}/bookings?status=CONFIRMED`, { headers: bearer(me.token) })).body.data.items).toEqual([]);
    const unknown = await http(`${P}/bookings?status=LOST`, { headers: bearer(me.token) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.field).toBe('status');
  });

  it('MCP: cancel_booking twice, a cancelled event and a draft survey refuse the move with from, to and allowed', async () => {
    const { merchant, service, company } = await setupSalon();
    const [slot] = (await http(`${P}/services/${service.id}/slots?date=${dayFromNow(16)}`, { headers: { 'x-company-id': company.companyId } })).body.data.items;
    const booking = await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: slot.start, customer: { name: 'Twice' } });
    await callTool(merchant, 'cancel_booking', { bookingId: booking.id });
    expect(await toolError(merchant, 'cancel_booking', { bookingId: booking.id })).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { from: 'CANCELLED', to: 'CANCELLED', allowed: [] },
    });

    const event = await callTool(merchant, 'create_event', {
      title: 'Called off',
      startsAt: '2031-01-10T10:00:00Z',
      endsAt: '2031-01-10T12:00:00Z',
      status: 'published',
    });
    expect((await callTool(merchant, 'update_event', { eventId: event.id, status: 'cancelled' })).status).toBe('cancelled');
    expect(await toolError(merchant, 'update_event', { eventId: event.id, status: 'published' })).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { from: 'cancelled', to: 'published', allowed: [] },
    });
    // The same state again is no move at all.
    expect((await callTool(merchant, 'update_event', { eventId: event.id, status: 'cancelled', venue: 'Nowhere' })).venue).toBe('Nowhere');

    const survey = await callTool(merchant, 'create_survey', { title: 'Not yet', questions: [{ type: 'text', label: 'Why?' }] });
    expect(await toolError(merchant, 'update_survey', { surveyId: survey.id, status: 'closed' })).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { from: 'draft', to: 'closed', allowed: ['published'] },
    });
    await callTool(merchant, 'update_survey', { surveyId: survey.id, status: 'published' });
    expect((await callTool(merchant, 'update_survey', { surveyId: survey.id, status: 'closed' })).status).toBe('closed');
    expect((await callTool(merchant, 'update_survey', { surveyId: survey.id, status: 'published' })).status).toBe('published');
  });

  it('GraphQL: states are enums; a refused move carries the code in extensions', async () => {
    const company = await signupCompany('Enum Studio');
    const auth = bearer(company.apiKey);
    const created = await graphql('mutation { createPost(input: { title: "Enum post", status: published }) { id status } }', {}, auth);
    expect(created.body.data.createPost.status).toBe('published');
    const quoted = await graphql('mutation { createPost(input: { title: "Quoted", status: "published" }) { id } }', {}, auth);
    expect(quoted.body.errors?.[0].message).toMatch(/PublishState/);
    const event = await graphql(
      'mutation { createEvent(input: { title: "Gone", startsAt: "2031-02-01T10:00:00Z", endsAt: "2031-02-01T11:00:00Z", status: published }) { id } }',
      {},
      auth,
    );
    const id = event.body.data.createEvent.id;
    await graphql('mutation($id: ID!) { updateEvent(eventId: $id, input: { status: cancelled }) { id } }', { id }, auth);
    const refused = await graphql('mutation($id: ID!) { updateEvent(eventId: $id, input: { status: draft }) { id } }', { id }, auth);
    expect(refused.body.errors?.[0].extensions).toMatchObject({ code: 'INVALID_STATE_TRANSITION', from: 'cancelled', to: 'draft', allowed: [] });
  });
});

describe('state enums in the MCP tools', () => {
  it('lists states as enums in the tools’ input schemas, with what each value means', async () => {
    const company = await signupCompany('Schema Studio');
    const { tools } = await (await mcpClient(company.apiKey)).listTools();
    const status = (tool: string) => {
      const schema = tools.find((t) => t.name === tool)!.inputSchema.properties!.status as any;
      return schema.anyOf ? schema.anyOf[0] : schema;
    };
    expect(status('list_bookings').enum).toEqual(['CONFIRMED', 'CANCELLED', 'COMPLETED', 'NO_SHOW']);
    expect((tools.find((t) => t.name === 'list_bookings')!.inputSchema.properties!.status as any).description).toMatch(/NO_SHOW: The customer did not come/);
    expect(status('update_booking_status').enum).toEqual(['COMPLETED', 'NO_SHOW']);
    expect(tools.find((t) => t.name === 'update_booking_status')!.inputSchema.required).toContain('status');
    for (const tool of ['list_posts', 'update_post', 'create_page', 'update_page']) expect(status(tool).enum, tool).toEqual(['draft', 'published']);
    for (const tool of ['create_event', 'update_event']) expect(status(tool).enum, tool).toEqual(['draft', 'published', 'cancelled']);
    for (const tool of ['create_survey', 'update_survey']) expect(status(tool).enum, tool).toEqual(['draft', 'published', 'closed']);
  });

  it('takes a state in any case and refuses an unknown one naming the parameter', async () => {
    const company = await signupCompany('Case Studio');
    const merchant = await mcpClient(company.apiKey);
    const post = await callTool(merchant, 'create_post', { title: 'Shouted' });
    expect((await callTool(merchant, 'update_post', { postId: post.id, status: 'PUBLISHED' })).status).toBe('published');
    const wrong = await toolError(merchant, 'list_posts', { status: 'archived' });
    expect(wrong).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'status' } });
    expect(wrong.message).toBe('status: must be one of draft, published');
    const nested = await toolError(merchant, 'create_booking', { serviceId: 'x', slotTime: '2031-01-01T10:00:00Z', customer: { email: 'a@b.example' } });
    expect(nested).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'customer.name' } });
  });
});

describe('error catalogue in the OpenAPI document and the guides', () => {
  it('lists every code and every reason, each described', async () => {
    const document = parse((await http('/openapi/connect-v6.openapi.yaml')).body);
    const error = document.components.schemas.Error.properties.error.properties;
    expect(error.code.enum).toEqual(Object.keys(ERROR_STATUS));
    expect(error.code.enum).toContain('INVALID_STATE_TRANSITION');
    const reason = error.details.properties.reason;
    expect(reason.enum.sort()).toEqual(Object.keys(ERROR_REASONS).sort());
    expect(reason['x-enum-descriptions']).toHaveLength(reason.enum.length);
    for (const name of reason.enum) expect(reason.description).toContain(`\`${name}\` (with ${ERROR_REASONS[name as keyof typeof ERROR_REASONS].code})`);
    expect(document.components.responses.E401.description).toMatch(/INVALID_CODE/);
    expect(document.components.responses.E409.description).toMatch(/INVALID_STATE_TRANSITION.*SOLD_OUT/);
  });

  it('the errors guide names every code and reason, and llms.txt points to it', async () => {
    const guide = readFileSync(join(import.meta.dirname, '../../docs/api/errors.md'), 'utf8');
    for (const name of [...Object.keys(ERROR_STATUS), ...Object.keys(ERROR_REASONS)]) expect(guide, name).toContain(`\`${name}\``);
    for (const [code, status] of Object.entries(ERROR_STATUS)) expect(guide).toContain(`| \`${code}\` | ${status} |`);
    expect((await http('/llms.txt')).body).toContain('/docs/errors.md');
    expect((await http('/docs/errors.md')).status).toBe(200);
  });
});

describe('booking errors in each caller’s words', () => {
  it('names the same service input as each route or tool calls it', async () => {
    const { company, merchant, service } = await setupSalon();
    const me = await signInCustomer(company.companyId);
    const { booking, slots } = await bookAsCustomer(company.companyId, service.id, me.token, me.email, dayFromNow(17));
    const offHours = `${dayFromNow(17)}T02:00:00.000Z`;
    // The booking id: `id` on the customer routes, `bookingId` in the tools.
    expect((await http(`${P}/bookings/not-an-id`, { headers: bearer(me.token) })).body.error.details.field).toBe('id');
    expect((await http(`${P}/bookings/not-an-id/cancel`, { body: {}, headers: bearer(me.token) })).body.error.details.field).toBe('id');
    expect((await toolError(merchant, 'cancel_booking', { bookingId: 'not-an-id' })).details.field).toBe('bookingId');
    // The start: `occurrenceStart` on REST, `slotTime` in the tools; the end only exists on REST.
    const restMove = await http(`${P}/bookings/${booking.id}/reschedule`, {
      body: { occurrenceStart: offHours, occurrenceEnd: `${dayFromNow(17)}T03:00:00.000Z` },
      headers: bearer(me.token),
    });
    expect(restMove.body.error).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'occurrenceStart' } });
    expect(restMove.body.error.message).toMatch(/^occurrenceStart: /);
    const toolMove = await toolError(merchant, 'reschedule_booking', { bookingId: booking.id, slotTime: offHours });
    expect(toolMove).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'slotTime' } });
    expect(toolMove.message).toMatch(/^slotTime: /);
    const badEnd = await http(`${P}/bookings/${booking.id}/reschedule`, {
      body: { occurrenceStart: slots[1].start, occurrenceEnd: slots[1].start },
      headers: bearer(me.token),
    });
    expect(badEnd.body.error.details.field).toBe('occurrenceEnd');
    // The customer's email: `customer.email` in the tool, `customerEmail` on the guest route.
    const email = await toolError(merchant, 'create_booking', {
      serviceId: service.id,
      slotTime: slots[2].start,
      customer: { name: 'Eve', email: 'not-an-email' },
    });
    expect(email).toMatchObject({ code: 'BAD_USER_INPUT', details: { field: 'customer.email' } });
    expect(email.message).toMatch(/^customer\.email: /);
  });
});
