import { describe, expect, it } from 'vitest';
import { http } from '../support/client.ts';
import { callTool, toolError } from '../support/mcp.ts';
import { dayFromNow, openAllWeek, setupSalon } from '../support/booking.ts';

const P = '/v6/customer-portal';
const local = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

async function slotsOn(companyId: string, serviceId: string, date: string, query = '') {
  const res = await http(`${P}/services/${serviceId}/slots?date=${date}${query}`, { headers: { 'x-company-id': companyId } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data as { timeZone: string; date: string; items: any[] };
}

describe('slots', () => {
  it('follow weekly hours in the company time zone, with date overrides and days off', async () => {
    const { company, merchant, staff, service } = await setupSalon();
    const day = dayFromNow(10);
    const slots = await slotsOn(company.companyId, service.id, day);
    expect(slots.timeZone).toBe('Europe/Berlin');
    expect(slots.items.map((s) => local(s.start, slots.timeZone))).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00']);
    expect(slots.items[0]).toMatchObject({ capacity: 1, remainingCapacity: 1, staff: [{ id: staff[0].id, name: 'Stylist 1' }] });
    expect(new Date(slots.items[0].end).getTime() - new Date(slots.items[0].start).getTime()).toBe(3600000);
    expect((slots as any).pagination).toEqual({ page: 1, limit: 20, total: 8, totalPages: 1, hasNextPage: false });
    const paged = await slotsOn(company.companyId, service.id, day, '&page=2&limit=3');
    expect(paged.items.map((s) => local(s.start, slots.timeZone))).toEqual(['12:00', '13:00', '14:00']);
    expect((paged as any).pagination).toEqual({ page: 2, limit: 3, total: 8, totalPages: 3, hasNextPage: true });

    await callTool(merchant, 'set_staff_availability', { memberId: staff[0].id, date: day, startTime: '12:00', endTime: '14:30' });
    expect((await slotsOn(company.companyId, service.id, day)).items.map((s) => local(s.start, 'Europe/Berlin'))).toEqual(['12:00', '13:00']);
    const off = dayFromNow(11);
    const dayOff = await callTool(merchant, 'set_staff_availability', { memberId: staff[0].id, date: off });
    expect(dayOff).toMatchObject({ date: off, available: false, startTime: null });
    expect((await slotsOn(company.companyId, service.id, off)).items).toEqual([]);
    expect((await slotsOn(company.companyId, service.id, dayFromNow(12))).items).toHaveLength(8);

    // The merchant tool covers a range; an empty list when nothing is open.
    const range = await callTool(merchant, 'get_available_slots', { serviceId: service.id, startDate: day, endDate: dayFromNow(12) });
    expect(range.items).toHaveLength(2 + 0 + 8);
    expect(range.pagination).toEqual({ page: 1, limit: 20, total: 10, totalPages: 1, hasNextPage: false });
    // Pages of a range follow one another, earliest first.
    const second = await callTool(merchant, 'get_available_slots', { serviceId: service.id, startDate: day, endDate: dayFromNow(12), page: 2, limit: 4 });
    expect(second.items.map((s: any) => s.start)).toEqual(range.items.slice(4, 8).map((s: any) => s.start));
    expect(second.pagination).toEqual({ page: 2, limit: 4, total: 10, totalPages: 3, hasNextPage: true });
  });

  it('validates the slot query', async () => {
    const { company, merchant, service } = await setupSalon();
    const h = { 'x-company-id': company.companyId };
    expect((await http(`${P}/services/${service.id}/slots`, { headers: h })).body.error.details.field).toBe('date');
    expect((await http(`${P}/services/${service.id}/slots?date=2026-02-30`, { headers: h })).body.error.details.field).toBe('date');
    expect((await http(`${P}/services/${service.id}/slots?date=0999-01-01`, { headers: h })).body.error.details.field).toBe('date');
    expect((await http(`${P}/services/${service.id}/slots?date=9999-12-31`, { headers: h })).body.error.details.field).toBe('date');
    const stranger = await callTool(merchant, 'create_staff_member', { name: 'Not on this service' });
    const res = await http(`${P}/services/${service.id}/slots?date=${dayFromNow(3)}&staffId=${stranger.id}`, { headers: h });
    expect(res.status).toBe(400);
    expect(res.body.error.details.field).toBe('staffId');
    expect((await toolError(merchant, 'get_available_slots', { serviceId: service.id, startDate: dayFromNow(5), endDate: dayFromNow(4) })).details.field).toBe(
      'endDate',
    );
    expect(
      (await toolError(merchant, 'set_staff_availability', { memberId: stranger.id, dayOfWeek: 9, startTime: '09:00', endTime: '10:00' })).details.field,
    ).toBe('dayOfWeek');
    expect(
      (await toolError(merchant, 'set_staff_availability', { memberId: stranger.id, dayOfWeek: 1, startTime: '10:00', endTime: '09:00' })).details.field,
    ).toBe('endTime');
    expect(
      (await toolError(merchant, 'set_staff_availability', { memberId: stranger.id, dayOfWeek: 1, date: dayFromNow(1), startTime: '10:00', endTime: '11:00' }))
        .details.field,
    ).toBe('date');
    expect(
      (await toolError(merchant, 'set_staff_availability', { memberId: stranger.id, dayOfWeek: 1, startTime: '9am', endTime: '11:00' })).details.field,
    ).toBe('startTime');
  });

  it('honour several staff, resources, buffers, minimum notice and the booking horizon', async () => {
    const { company, merchant, staff, service } = await setupSalon({ staffCount: 2, service: { bufferAfterMinutes: 30 } });
    const day = dayFromNow(6);
    const first = (await slotsOn(company.companyId, service.id, day)).items[0];
    expect(first.staff.map((s: any) => s.id)).toEqual(staff.map((s) => s.id));
    const tz = 'Europe/Berlin';
    await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: first.start, customer: { name: 'Ann' }, staffId: staff[0].id });
    const after = (await slotsOn(company.companyId, service.id, day, `&staffId=${staff[0].id}`)).items.map((s) => local(s.start, tz));
    // 09:00–10:00 plus a 30-minute buffer: Stylist 1 is next free at 11:00.
    expect(after.slice(0, 2)).toEqual(['11:00', '12:00']);
    const both = (await slotsOn(company.companyId, service.id, day)).items;
    expect(local(both[0].start, tz)).toBe('09:00');
    expect(both[0].staff.map((s: any) => s.id)).toEqual([staff[1].id]);

    const room = await callTool(merchant, 'create_resource', { name: 'Studio', type: 'room' });
    await openAllWeek(merchant, 'set_resource_availability', room.id, '13:00', '15:00');
    await callTool(merchant, 'update_service', { serviceId: service.id, resourceIds: [room.id], requiresResource: true });
    expect((await slotsOn(company.companyId, service.id, dayFromNow(7))).items.map((s) => local(s.start, tz))).toEqual(['13:00', '14:00']);

    await callTool(merchant, 'update_service', { serviceId: service.id, minimumNoticeMinutes: 60 * 24 * 5, bookingHorizonDays: 8, requiresResource: false });
    expect((await slotsOn(company.companyId, service.id, dayFromNow(3))).items).toEqual([]);
    expect((await slotsOn(company.companyId, service.id, dayFromNow(7))).items.length).toBeGreaterThan(0);
    expect((await slotsOn(company.companyId, service.id, dayFromNow(9))).items).toEqual([]);
  });

  it('are right on DST days (America/New_York spring-forward and fall-back)', async () => {
    const { company, merchant, staff, service } = await setupSalon({ timeZone: 'America/New_York' });
    const tz = 'America/New_York';
    // Weekly 09:00–17:00: 09:00 local is 14:00Z in winter and 13:00Z in summer.
    expect((await slotsOn(company.companyId, service.id, '2027-03-13')).items[0].start).toBe('2027-03-13T14:00:00.000Z');
    expect((await slotsOn(company.companyId, service.id, '2027-03-14')).items[0].start).toBe('2027-03-14T13:00:00.000Z');
    expect((await slotsOn(company.companyId, service.id, '2027-11-06')).items[0].start).toBe('2027-11-06T13:00:00.000Z');
    expect((await slotsOn(company.companyId, service.id, '2027-11-07')).items[0].start).toBe('2027-11-07T14:00:00.000Z');

    // 00:00–04:00 local is three real hours when clocks spring forward, five when they fall back.
    await callTool(merchant, 'set_staff_availability', { memberId: staff[0].id, date: '2027-03-14', startTime: '00:00', endTime: '04:00' });
    await callTool(merchant, 'set_staff_availability', { memberId: staff[0].id, date: '2027-11-07', startTime: '00:00', endTime: '04:00' });
    const spring = (await slotsOn(company.companyId, service.id, '2027-03-14')).items;
    expect(spring.map((s) => local(s.start, tz))).toEqual(['00:00', '01:00', '03:00']);
    expect(spring.map((s) => s.start)).toEqual(['2027-03-14T05:00:00.000Z', '2027-03-14T06:00:00.000Z', '2027-03-14T07:00:00.000Z']);
    const fall = (await slotsOn(company.companyId, service.id, '2027-11-07')).items;
    expect(fall.map((s) => local(s.start, tz))).toEqual(['00:00', '01:00', '01:00', '02:00', '03:00']);
    expect(fall.map((s) => s.start)).toEqual([
      '2027-11-07T04:00:00.000Z',
      '2027-11-07T05:00:00.000Z',
      '2027-11-07T06:00:00.000Z',
      '2027-11-07T07:00:00.000Z',
      '2027-11-07T08:00:00.000Z',
    ]);

    // Booking a DST-day slot works and takes exactly that hour.
    const booked = await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: fall[2].start, customer: { name: 'Late owl' } });
    expect(booked).toMatchObject({ status: 'CONFIRMED', startsAt: '2027-11-07T06:00:00.000Z', endsAt: '2027-11-07T07:00:00.000Z' });
    expect((await slotsOn(company.companyId, service.id, '2027-11-07')).items).toHaveLength(4);
  });
});
