import { describe, expect, it } from 'vitest';
import { graphql, http, lastMessage, uniqueEmail } from '../support/client.ts';
import { bearer, signInCustomer, signupCompany } from '../support/fixtures.ts';
import { callTool, toolError } from '../support/mcp.ts';
import { dayFromNow, setupSalon } from '../support/booking.ts';

const P = '/v6/customer-portal';

async function firstSlots(companyId: string, serviceId: string, day: string) {
  const res = await http(`${P}/services/${serviceId}/slots?date=${day}`, { headers: { 'x-company-id': companyId } });
  return res.body.data.items as { start: string; end: string; remainingCapacity: number; staff: { id: string }[] }[];
}

const guest = (serviceId: string, slot: { start: string; end: string }, extra: Record<string, unknown> = {}) => ({
  serviceId,
  occurrenceStart: slot.start,
  occurrenceEnd: slot.end,
  customerName: 'Guest Gina',
  customerPhone: '+15550100200',
  ...extra,
});

describe('bookings', () => {
  it('an agent books a slot: id and status come back, the slot is gone, the customer is told', async () => {
    const { company, merchant, service } = await setupSalon();
    const day = dayFromNow(4);
    const [slot] = await firstSlots(company.companyId, service.id, day);
    const email = uniqueEmail('booker');
    const since = Date.now();
    const booking = await callTool(merchant, 'create_booking', {
      serviceId: service.id,
      slotTime: slot.start,
      participants: 1,
      customer: { name: 'Ann', email },
    });
    expect(booking).toMatchObject({
      status: 'CONFIRMED',
      serviceId: service.id,
      service: { name: 'Haircut' },
      customerName: 'Ann',
      customerEmail: email,
      startsAt: slot.start,
      endsAt: slot.end,
      price: { amount: '49.00', currency: 'EUR' },
    });
    expect(booking.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(booking.history).toEqual([expect.objectContaining({ type: 'CREATED', toStart: slot.start, actor: 'merchant' })]);
    expect((await firstSlots(company.companyId, service.id, day))[0].start).not.toBe(slot.start);
    const message = await lastMessage(email, since);
    expect(message.subject).toMatch(/confirmed/);
    expect(message.body).toContain(booking.id);

    const taken = await toolError(merchant, 'create_booking', { serviceId: service.id, slotTime: slot.start, customer: { name: 'Bob' } });
    expect(taken.code).toBe('SLOT_TAKEN');
    const viaRest = await http(`${P}/bookings/guest`, { body: guest(service.id, slot), headers: { 'x-company-id': company.companyId } });
    expect(viaRest.status).toBe(409);
    expect(viaRest.body.error.code).toBe('SLOT_TAKEN');

    const listed = await callTool(merchant, 'list_bookings', { status: 'CONFIRMED', date: day });
    expect(listed.items.map((b: any) => b.id)).toEqual([booking.id]);
    expect((await callTool(merchant, 'list_bookings', { status: 'CANCELLED' })).items).toEqual([]);
    expect((await callTool(merchant, 'list_bookings', { date: dayFromNow(5) })).items).toEqual([]);
    expect((await toolError(merchant, 'list_bookings', { status: 'LOST' })).details.field).toBe('status');
  });

  it('validates booking input', async () => {
    const { company, merchant, service } = await setupSalon();
    const [slot] = await firstSlots(company.companyId, service.id, dayFromNow(4));
    const h = { 'x-company-id': company.companyId };
    const noPhone = await http(`${P}/bookings/guest`, { body: { ...guest(service.id, slot), customerPhone: undefined }, headers: h });
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.error.details.field).toBe('customerPhone');
    const badEnd = await http(`${P}/bookings/guest`, { body: guest(service.id, slot, { occurrenceEnd: slot.start }), headers: h });
    expect(badEnd.body.error.details.field).toBe('occurrenceEnd');
    const offHours = new Date(new Date(slot.start).getTime() - 3 * 3600000).toISOString();
    const closed = await http(`${P}/bookings/guest`, {
      body: guest(service.id, { start: offHours, end: new Date(new Date(offHours).getTime() + 3600000).toISOString() }),
      headers: h,
    });
    expect(closed.status).toBe(400);
    expect(closed.body.error.details.field).toBe('occurrenceStart');
    const badTime = await http(`${P}/bookings/guest`, { body: guest(service.id, slot, { occurrenceStart: 'tomorrow' }), headers: h });
    expect(badTime.status).toBe(400);
    expect(badTime.body.error.details.field).toBe('occurrenceStart');
    const badEmail = await http(`${P}/bookings/guest`, { body: guest(service.id, slot, { customerEmail: 'x' }), headers: h });
    expect(badEmail.body.error.details.field).toBe('customerEmail');
    expect(
      (await toolError(merchant, 'create_booking', { serviceId: service.id, slotTime: slot.start, participants: 2, customer: { name: 'Too many' } })).details
        .field,
    ).toBe('participants');
    expect((await toolError(merchant, 'create_booking', { serviceId: service.id, slotTime: slot.start, customer: { name: '' } })).details.field).toBe(
      'customer.name',
    );
    const unknown = await http(`${P}/bookings/guest`, { body: guest('01900000-0000-7000-8000-000000000000', slot), headers: h });
    expect(unknown.status).toBe(404);
  });

  it('sells group seats until full; participants never exceed capacity', async () => {
    const { company, merchant, service } = await setupSalon({ service: { name: 'Yoga class', capacity: 3 } });
    const [slot] = await firstSlots(company.companyId, service.id, dayFromNow(5));
    expect(slot.remainingCapacity).toBe(3);
    await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: slot.start, participants: 2, customer: { name: 'Pair' } });
    expect((await firstSlots(company.companyId, service.id, dayFromNow(5)))[0]).toMatchObject({ start: slot.start, remainingCapacity: 1 });
    expect(
      (await toolError(merchant, 'create_booking', { serviceId: service.id, slotTime: slot.start, participants: 2, customer: { name: 'Late pair' } })).code,
    ).toBe('SLOT_TAKEN');
    await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: slot.start, participants: 1, customer: { name: 'Solo' } });
    expect((await firstSlots(company.companyId, service.id, dayFromNow(5)))[0].start).not.toBe(slot.start);
    expect((await toolError(merchant, 'create_booking', { serviceId: service.id, slotTime: slot.start, customer: { name: 'One more' } })).code).toBe(
      'SLOT_TAKEN',
    );
  });

  it('a service that needs a room books each room on its own at the same time', async () => {
    const { company, merchant } = await setupSalon();
    const rooms = [
      await callTool(merchant, 'create_resource', { name: 'Room A', type: 'room' }),
      await callTool(merchant, 'create_resource', { name: 'Room B', type: 'room' }),
    ];
    const sauna = await callTool(merchant, 'create_service', {
      name: 'Sauna',
      durationMinutes: 60,
      price: '15',
      capacity: 1,
      resourceIds: rooms.map((r) => r.id),
      minimumNoticeMinutes: 0,
    });
    expect(sauna).toMatchObject({ requiresResource: true, requiresStaff: false });
    const [slot] = await firstSlots(company.companyId, sauna.id, dayFromNow(5));
    const a = await callTool(merchant, 'create_booking', { serviceId: sauna.id, slotTime: slot.start, customer: { name: 'A' } });
    const b = await callTool(merchant, 'create_booking', { serviceId: sauna.id, slotTime: slot.start, customer: { name: 'B' } });
    expect([a.resource.id, b.resource.id].sort()).toEqual(rooms.map((r) => r.id).sort());
    expect((await toolError(merchant, 'create_booking', { serviceId: sauna.id, slotTime: slot.start, customer: { name: 'C' } })).code).toBe('SLOT_TAKEN');
    // Optional arguments may be null, as in GraphQL: null clears the category.
    const category = await callTool(merchant, 'create_service_category', { name: 'Wellness' });
    await callTool(merchant, 'update_service', { serviceId: sauna.id, categoryId: category.id });
    expect((await callTool(merchant, 'update_service', { serviceId: sauna.id, categoryId: null, description: null })).categoryId).toBeNull();
  });

  it('exactly one of 20 concurrent attempts gets a slot of capacity 1', async () => {
    const { company, service } = await setupSalon();
    const [slot] = await firstSlots(company.companyId, service.id, dayFromNow(6));
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        http(`${P}/bookings/guest`, { body: guest(service.id, slot, { customerName: `Racer ${i}` }), headers: { 'x-company-id': company.companyId } }),
      ),
    );
    const statuses = attempts.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(attempts.filter((a) => a.status === 409).every((a) => a.body.error.code === 'SLOT_TAKEN')).toBe(true);
  });

  it("a customer sees their own and their verified-address guest bookings, never another's", async () => {
    const { company, merchant, service } = await setupSalon({ staffCount: 2 });
    const h = { 'x-company-id': company.companyId };
    const email = uniqueEmail('regular');
    const slots = await firstSlots(company.companyId, service.id, dayFromNow(8));
    // A guest booking made with the address before signing in…
    const asGuest = await http(`${P}/bookings/guest`, { body: guest(service.id, slots[0], { customerEmail: email }), headers: h });
    expect(asGuest.status).toBe(201);
    expect(asGuest.body.data).toMatchObject({ status: 'CONFIRMED', customerEmail: email });
    // …and one made while signed in (token on the optional route).
    const me = await signInCustomer(company.companyId, email);
    const signedIn = await http(`${P}/bookings/guest`, { body: guest(service.id, slots[1], { customerName: 'Me' }), headers: { ...h, ...bearer(me.token) } });
    expect(signedIn.status).toBe(201);
    const other = await signInCustomer(company.companyId);
    const theirs = await http(`${P}/bookings/guest`, { body: guest(service.id, slots[2]), headers: { ...h, ...bearer(other.token) } });

    const mine = await http(`${P}/bookings`, { headers: bearer(me.token) });
    expect(mine.status).toBe(200);
    expect(mine.body.data.items.map((b: any) => b.id).sort()).toEqual([asGuest.body.data.id, signedIn.body.data.id].sort());
    expect(mine.body.data.pagination.total).toBe(2);
    expect((await http(`${P}/bookings/${asGuest.body.data.id}`, { headers: bearer(me.token) })).body.data.id).toBe(asGuest.body.data.id);
    expect((await http(`${P}/bookings/${theirs.body.data.id}`, { headers: bearer(me.token) })).status).toBe(404);
    expect((await http(`${P}/bookings/${theirs.body.data.id}/cancel`, { body: {}, headers: bearer(me.token) })).status).toBe(404);
    expect((await http(`${P}/bookings`)).status).toBe(401);
    // Another company's customer sees none of them.
    const elsewhere = await signupCompany('Elsewhere Salon');
    const stranger = await signInCustomer(elsewhere.companyId, email);
    expect((await http(`${P}/bookings`, { headers: bearer(stranger.token) })).body.data.items).toEqual([]);
    expect((await http(`${P}/bookings/${asGuest.body.data.id}`, { headers: bearer(stranger.token) })).status).toBe(404);

    // Across subgraphs: members' Customer has bookings; a booking's customer is resolved by members.
    const joined = await graphql('{ currentCustomer { id email bookings { id service { name } } } }', {}, bearer(me.token));
    expect(joined.body.errors).toBeUndefined();
    expect(joined.body.data.currentCustomer.bookings.map((b: any) => b.id)).toEqual([signedIn.body.data.id]);
    const merchantView = await graphql('{ bookings { items { id customer { id name email } } } }', {}, bearer(company.apiKey));
    expect(merchantView.body.errors).toBeUndefined();
    const linked = merchantView.body.data.bookings.items.find((b: any) => b.id === signedIn.body.data.id);
    expect(linked.customer).toEqual({ id: me.customerId, name: email.split('@')[0], email });
    void merchant;
  });

  it('cancels within the policy with refund eligibility; inside the cut-off it is refused with the policy', async () => {
    const { company, merchant, service } = await setupSalon();
    const me = await signInCustomer(company.companyId);
    const h = { 'x-company-id': company.companyId, ...bearer(me.token) };
    const [slot] = await firstSlots(company.companyId, service.id, dayFromNow(9));
    const booked = await http(`${P}/bookings/guest`, { body: guest(service.id, slot, { customerEmail: me.email }), headers: h });
    const since = Date.now();
    const cancelled = await http(`${P}/bookings/${booked.body.data.id}/cancel`, { body: { reason: 'Feeling ill' }, headers: bearer(me.token) });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: 'CANCELLED',
      cancellationReason: 'Feeling ill',
      refund: { eligible: true, percent: 50, amount: { amount: '24.50', currency: 'EUR' } },
    });
    expect(cancelled.body.data.history.map((e: any) => e.type)).toEqual(['CREATED', 'CANCELLED']);
    expect((await lastMessage(me.email, since)).subject).toMatch(/cancelled/);
    // A cancelled booking frees its slot.
    expect((await firstSlots(company.companyId, service.id, dayFromNow(9)))[0].start).toBe(slot.start);
    const again = await http(`${P}/bookings/${booked.body.data.id}/cancel`, { body: {}, headers: bearer(me.token) });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE_TRANSITION');

    const strict = await callTool(merchant, 'create_service', {
      name: 'Strict',
      durationMinutes: 60,
      price: '20',
      capacity: 1,
      staffIds: service.staff.map((s: any) => s.id),
      minimumNoticeMinutes: 0,
      cancellationPolicy: { hoursBefore: 24 * 30, refundPercent: 0, description: 'No cancellations within 30 days.' },
    });
    const [soon] = await firstSlots(company.companyId, strict.id, dayFromNow(2));
    const late = await http(`${P}/bookings/guest`, { body: guest(strict.id, soon, { customerEmail: me.email }), headers: h });
    const refused = await http(`${P}/bookings/${late.body.data.id}/cancel`, { body: {}, headers: bearer(me.token) });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CANCELLATION_NOT_ALLOWED');
    expect(refused.body.error.details.cancellationPolicy).toEqual({ hoursBefore: 720, refundPercent: 0, description: 'No cancellations within 30 days.' });
    const viaTool = await toolError(merchant, 'cancel_booking', { bookingId: late.body.data.id });
    expect(viaTool.code).toBe('CANCELLATION_NOT_ALLOWED');
    expect(viaTool.details.cancellationPolicy.description).toBe('No cancellations within 30 days.');
    const reschedule = await http(`${P}/bookings/${late.body.data.id}/reschedule`, {
      body: { occurrenceStart: soon.start, occurrenceEnd: soon.end },
      headers: bearer(me.token),
    });
    expect(reschedule.body.error.code).toBe('CANCELLATION_NOT_ALLOWED');

    const merchantCancel = await callTool(merchant, 'cancel_booking', {
      bookingId: (await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: slot.start, customer: { name: 'Walk-in' } })).id,
      reason: 'Closed',
    });
    expect(merchantCancel).toMatchObject({ status: 'CANCELLED', refund: { eligible: true, percent: 50 } });
  });

  it('reschedules to a free slot and keeps the history; a taken slot is SLOT_TAKEN', async () => {
    const { company, merchant, service } = await setupSalon();
    const me = await signInCustomer(company.companyId);
    const h = { 'x-company-id': company.companyId, ...bearer(me.token) };
    const slots = await firstSlots(company.companyId, service.id, dayFromNow(10));
    const booked = (await http(`${P}/bookings/guest`, { body: guest(service.id, slots[0], { customerEmail: me.email }), headers: h })).body.data;
    await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: slots[2].start, customer: { name: 'Blocker' } });
    const since = Date.now();
    const moved = await http(`${P}/bookings/${booked.id}/reschedule`, {
      body: { occurrenceStart: slots[1].start, occurrenceEnd: slots[1].end },
      headers: bearer(me.token),
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ id: booked.id, status: 'CONFIRMED', startsAt: slots[1].start });
    expect(moved.body.data.history.map((e: any) => [e.type, e.fromStart, e.toStart])).toEqual([
      ['CREATED', null, slots[0].start],
      ['RESCHEDULED', slots[0].start, slots[1].start],
    ]);
    expect((await lastMessage(me.email, since)).subject).toMatch(/rescheduled/);
    const free = (await firstSlots(company.companyId, service.id, dayFromNow(10))).map((s) => s.start);
    expect(free).toContain(slots[0].start);
    expect(free).not.toContain(slots[1].start);

    const clash = await http(`${P}/bookings/${booked.id}/reschedule`, {
      body: { occurrenceStart: slots[2].start, occurrenceEnd: slots[2].end },
      headers: bearer(me.token),
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('SLOT_TAKEN');
    const missing = await http(`${P}/bookings/${booked.id}/reschedule`, { body: { occurrenceEnd: slots[2].end }, headers: bearer(me.token) });
    expect(missing.body.error.details.field).toBe('occurrenceStart');

    const viaTool = await callTool(merchant, 'reschedule_booking', { bookingId: booked.id, slotTime: slots[3].start });
    expect(viaTool.startsAt).toBe(slots[3].start);
    expect(viaTool.history).toHaveLength(3);
  });
});

describe('booking outcomes', () => {
  it('records COMPLETED or NO_SHOW after the start, and only then', async () => {
    const { company, merchant, service } = await setupSalon();
    const [a, b] = await firstSlots(company.companyId, service.id, dayFromNow(12));
    const first = await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: a.start, customer: { name: 'Early' } });
    const second = await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: b.start, customer: { name: 'Absent' } });
    expect((await toolError(merchant, 'update_booking_status', { bookingId: first.id, status: 'COMPLETED' })).details.field).toBe('status');
    // Let the appointments be in the past (the database is the clock's only stand-in here).
    const { testServer } = await import('../support/server.ts');
    const { app } = await testServer();
    await app.platform.runtime.db.orm.em
      .getConnection()
      .execute(
        `update booking.booking set starts_at = starts_at - interval '30 days', ends_at = ends_at - interval '30 days', block_start = block_start - interval '30 days', block_end = block_end - interval '30 days' where id in (?, ?)`,
        [first.id, second.id],
      );
    expect(await callTool(merchant, 'update_booking_status', { bookingId: first.id, status: 'COMPLETED' })).toMatchObject({ status: 'COMPLETED' });
    const noShow = await callTool(merchant, 'update_booking_status', { bookingId: second.id, status: 'no_show' });
    expect(noShow.status).toBe('NO_SHOW');
    expect(noShow.history.at(-1)).toMatchObject({ type: 'STATUS_CHANGED', note: 'NO_SHOW' });
    expect((await toolError(merchant, 'update_booking_status', { bookingId: first.id, status: 'NO_SHOW' })).code).toBe('INVALID_STATE_TRANSITION');
    expect((await toolError(merchant, 'update_booking_status', { bookingId: first.id, status: 'CANCELLED' })).details.field).toBe('status');
    expect((await callTool(merchant, 'list_bookings', { status: 'COMPLETED' })).items.map((x: any) => x.id)).toEqual([first.id]);
  });
});
