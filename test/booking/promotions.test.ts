import { describe, expect, it } from 'vitest';
import { http } from '../support/client.ts';
import { callTool, toolError } from '../support/mcp.ts';
import { dayFromNow, setupSalon } from '../support/booking.ts';

const P = '/v6/customer-portal';

async function slotsOn(companyId: string, serviceId: string, day: string) {
  const res = await http(`${P}/services/${serviceId}/slots?date=${day}`, { headers: { 'x-company-id': companyId } });
  return res.body.data.items as { start: string; end: string }[];
}

/**
 * Promotion codes on bookings (booking channel): commerce's promotion, taken in the booking's own
 * transaction through commerce's database function, given back when the booking is cancelled.
 */
describe('promotion codes on bookings', () => {
  it('a guest booking and create_booking record the price, the discount and the amount due', async () => {
    const { company, merchant, service } = await setupSalon();
    const h = { 'x-company-id': company.companyId };
    await callTool(merchant, 'create_promotion', {
      name: 'Ten percent',
      code: 'HAIR10',
      type: 'percentage',
      value: '10',
      bookingEnabled: true,
      onlineEnabled: false,
      posEnabled: false,
    });
    await callTool(merchant, 'create_promotion', {
      name: 'Shop only',
      code: 'SHOPONLY',
      type: 'fixed',
      value: '5',
      bookingEnabled: false,
      onlineEnabled: true,
      posEnabled: true,
    });
    const [a, b, c] = await slotsOn(company.companyId, service.id, dayFromNow(5));

    const guest = await http(`${P}/bookings/guest`, {
      body: {
        serviceId: service.id,
        occurrenceStart: a.start,
        occurrenceEnd: a.end,
        customerName: 'Gia',
        customerPhone: '+15550100300',
        promotionCode: 'hair10',
      },
      headers: h,
    });
    expect(guest.status).toBe(201);
    expect(guest.body.data).toMatchObject({
      status: 'CONFIRMED',
      promotionCode: 'HAIR10',
      price: { amount: '49.00' },
      discount: { amount: '4.90' },
      amountDue: { amount: '44.10', currency: 'EUR' },
    });

    const agent = await callTool(merchant, 'create_booking', {
      serviceId: service.id,
      slotTime: b.start,
      customer: { name: 'Al', email: 'al@example.test' },
      promotionCode: 'HAIR10',
    });
    expect(agent).toMatchObject({ promotionCode: 'HAIR10', discount: { amount: '4.90' }, amountDue: { amount: '44.10' } });
    const plain = await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: c.start, customer: { name: 'Bo' } });
    expect(plain).toMatchObject({ promotionCode: null, discount: { amount: '0.00' }, amountDue: { amount: '49.00' } });

    // A code not enabled for bookings, or unknown, books nothing: the slot stays free.
    const [d] = await slotsOn(company.companyId, service.id, dayFromNow(6));
    const refused = await http(`${P}/bookings/guest`, {
      body: {
        serviceId: service.id,
        occurrenceStart: d.start,
        occurrenceEnd: d.end,
        customerName: 'Gia',
        customerPhone: '+15550100300',
        promotionCode: 'SHOPONLY',
      },
      headers: h,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'PROMOTION_INVALID', details: { field: 'promotionCode', errorCode: 'CHANNEL_NOT_ENABLED' } });
    expect(
      (await toolError(merchant, 'create_booking', { serviceId: service.id, slotTime: d.start, customer: { name: 'Al' }, promotionCode: 'NOPE' })).details,
    ).toMatchObject({ field: 'promotionCode', errorCode: 'PROMOTION_NOT_FOUND' });
    expect((await slotsOn(company.companyId, service.id, dayFromNow(6)))[0].start).toBe(d.start);
    // validate_promotion answers the same for the booking channel.
    expect(await callTool(merchant, 'validate_promotion', { promotionCode: 'HAIR10', channel: 'booking', amount: 49 })).toMatchObject({
      isValid: true,
      discountAmount: { amount: '4.90' },
    });
  });

  it('shares the usage limit with orders, and a cancelled booking gives its use back (the refund is of the amount due)', async () => {
    const { company, merchant, service } = await setupSalon();
    const once = await callTool(merchant, 'create_promotion', {
      name: 'Once',
      code: 'ONCE',
      type: 'fixed',
      value: '9',
      bookingEnabled: true,
      onlineEnabled: true,
      posEnabled: true,
      usageLimit: 1,
    });
    const [a, b] = await slotsOn(company.companyId, service.id, dayFromNow(7));
    const booked = await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: a.start, customer: { name: 'Cy' }, promotionCode: 'ONCE' });
    expect(booked.amountDue.amount).toBe('40.00');
    expect(
      (await toolError(merchant, 'create_booking', { serviceId: service.id, slotTime: b.start, customer: { name: 'Di' }, promotionCode: 'ONCE' })).details
        .errorCode,
    ).toBe('USAGE_LIMIT_REACHED');
    expect((await callTool(merchant, 'get_promotion', { promotionId: once.id })).usedCount).toBe(1);

    const cancelled = await callTool(merchant, 'cancel_booking', { bookingId: booked.id, reason: 'Ill' });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', refund: { eligible: true, percent: 50, amount: { amount: '20.00' } } });
    expect((await callTool(merchant, 'get_promotion', { promotionId: once.id })).usedCount).toBe(0);
    // Free again, for a booking or an order.
    const again = await callTool(merchant, 'create_booking', { serviceId: service.id, slotTime: b.start, customer: { name: 'Di' }, promotionCode: 'once' });
    expect(again.discount.amount).toBe('9.00');
  });

  it('exactly the usage limit of concurrent bookings carry the code', async () => {
    const { company, merchant, service } = await setupSalon();
    const limited = await callTool(merchant, 'create_promotion', {
      name: 'Three',
      code: 'THREE',
      type: 'percentage',
      value: '20',
      bookingEnabled: true,
      onlineEnabled: false,
      posEnabled: false,
      usageLimit: 3,
    });
    const slots = (await slotsOn(company.companyId, service.id, dayFromNow(8))).slice(0, 8);
    expect(slots).toHaveLength(8);
    const results = await Promise.all(
      slots.map((s, i) =>
        http(`${P}/bookings/guest`, {
          body: {
            serviceId: service.id,
            occurrenceStart: s.start,
            occurrenceEnd: s.end,
            customerName: `G${i}`,
            customerPhone: `+1555010${String(i).padStart(4, '0')}`,
            promotionCode: 'THREE',
          },
          headers: { 'x-company-id': company.companyId },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 201)) expect(r.body.error.details.errorCode).toBe('USAGE_LIMIT_REACHED');
    expect((await callTool(merchant, 'get_promotion', { promotionId: limited.id })).usedCount).toBe(3);
    expect((await callTool(merchant, 'list_bookings', { limit: 100 })).items).toHaveLength(3);
  });
});
