import { describe, expect, it } from 'vitest';
import { statementsOf } from '../support/sql.ts';
import { http } from '../support/client.ts';
import { bearer, signupCompany } from '../support/fixtures.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';
import { setupSalon } from '../support/booking.ts';

const P = '/v6/customer-portal';

describe('service catalogue', () => {
  it('lets an agent build the catalogue: category, staff, resource, service, detail, update', async () => {
    const company = await signupCompany('Catalogue Spa');
    const merchant = await mcpClient(company.apiKey);
    const category = await callTool(merchant, 'create_service_category', { name: 'Massage' });
    expect(category).toMatchObject({ name: 'Massage' });
    expect((await toolError(merchant, 'create_service_category', { name: 'massage' })).code).toBe('CONFLICT');
    const therapist = await callTool(merchant, 'create_staff_member', { name: 'Mia', email: 'mia@spa.example', phone: '+49 170 1234567', title: 'Therapist' });
    expect(therapist).toMatchObject({ name: 'Mia', email: 'mia@spa.example', phone: '+491701234567' });
    const room = await callTool(merchant, 'create_resource', { name: 'Room 1', type: 'room' });
    expect(room).toMatchObject({ name: 'Room 1', type: 'room' });

    const service = await callTool(merchant, 'create_service', {
      name: 'Deep tissue',
      durationMinutes: 90,
      price: 80,
      capacity: 1,
      categoryId: category.id,
      cancellationPolicy: { hoursBefore: 48, refundPercent: 100, description: 'Free cancellation until 48 hours before.' },
      requiresStaff: true,
      requiresResource: true,
      staffIds: [therapist.id],
      resourceIds: [room.id],
      bufferAfterMinutes: 15,
      prepNotes: 'Arrive 10 minutes early.',
    });
    expect(service).toMatchObject({
      name: 'Deep tissue',
      durationMinutes: 90,
      price: { amount: '80.00', currency: 'EUR' },
      capacity: 1,
      categoryId: category.id,
      requiresStaff: true,
      requiresResource: true,
      staff: [{ id: therapist.id, name: 'Mia' }],
      resources: [{ id: room.id, name: 'Room 1', type: 'room' }],
      bufferAfterMinutes: 15,
      cancellationPolicy: { hoursBefore: 48, refundPercent: 100, description: 'Free cancellation until 48 hours before.' },
      active: true,
    });
    const detail = await callTool(merchant, 'get_service_detail', { serviceId: service.id });
    expect(detail).toMatchObject({ prepNotes: 'Arrive 10 minutes early.', cancellationPolicy: { hoursBefore: 48 } });
    const updated = await callTool(merchant, 'update_service', { serviceId: service.id, price: '85.50', capacity: 2 });
    expect(updated).toMatchObject({ price: { amount: '85.50' }, capacity: 2, durationMinutes: 90, staff: [{ id: therapist.id }] });
    const cards = await callTool(merchant, 'list_services');
    expect(cards.items).toEqual([
      {
        id: service.id,
        name: 'Deep tissue',
        price: { amount: '85.50', currency: 'EUR' },
        durationMinutes: 90,
        capacity: 2,
        category: { id: category.id, name: 'Massage' },
        active: true,
      },
    ]);
  });

  it('validates service input and names the field', async () => {
    const company = await signupCompany('Strict Spa');
    const merchant = await mcpClient(company.apiKey);
    const other = await signupCompany('Other Spa');
    const foreignStaff = await callTool(await mcpClient(other.apiKey), 'create_staff_member', { name: 'Not yours' });
    const base = { name: 'X', durationMinutes: 30, price: '10', capacity: 1 };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, durationMinutes: 0 }, 'durationMinutes'],
      [{ ...base, price: '10.001' }, 'price'],
      [{ ...base, price: '-5' }, 'price'],
      [{ ...base, capacity: 0 }, 'capacity'],
      [{ ...base, name: '  ' }, 'name'],
      [{ ...base, categoryId: '01900000-0000-7000-8000-000000000000' }, 'categoryId'],
      [{ ...base, staffIds: [foreignStaff.id] }, 'staffIds'],
      [{ ...base, cancellationPolicy: { hoursBefore: -1 } }, 'cancellationPolicy.hoursBefore'],
      [{ ...base, cancellationPolicy: { hoursBefore: 2, refundPercent: 120 } }, 'cancellationPolicy.refundPercent'],
    ];
    for (const [args, field] of cases) expect((await toolError(merchant, 'create_service', args)).details?.field, field).toBe(field);
    expect((await toolError(merchant, 'create_service', { name: 'X', durationMinutes: 30, capacity: 1 })).message).toMatch(/price/);
    expect((await toolError(merchant, 'update_service', { serviceId: '01900000-0000-7000-8000-000000000000', name: 'Y' })).code).toBe('NOT_FOUND');
    expect((await callTool(merchant, 'list_services')).items).toEqual([]);
  });

  it('serves the customer routes: list with search and paging, one service, its staff and resources', async () => {
    const { company, merchant, staff, service } = await setupSalon({ staffCount: 2 });
    const room = await callTool(merchant, 'create_resource', { name: 'Chair A', type: 'equipment' });
    await callTool(merchant, 'update_service', { serviceId: service.id, resourceIds: [room.id], requiresResource: false });
    const colour = await callTool(merchant, 'create_service', {
      name: 'Colouring',
      durationMinutes: 120,
      price: '99',
      capacity: 1,
      staffIds: [staff[0].id],
      description: 'Full colour',
    });
    const hidden = await callTool(merchant, 'create_service', { name: 'Secret', durationMinutes: 30, price: '1', capacity: 1 });
    await callTool(merchant, 'update_service', { serviceId: hidden.id, active: false });
    const h = { 'x-company-id': company.companyId };

    const list = await http(`${P}/services`, { headers: h });
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((s: any) => s.name)).toEqual(['Colouring', 'Haircut']);
    expect(list.body.data.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1, hasNextPage: false });
    expect(list.body.data.items[1].price).toEqual({ amount: '49.00', currency: 'EUR' });
    const searched = await http(`${P}/services?search=colour`, { headers: h });
    expect(searched.body.data.items.map((s: any) => s.id)).toEqual([colour.id]);
    const paged = await http(`${P}/services?page=2&limit=1`, { headers: h });
    expect(paged.body.data.items.map((s: any) => s.name)).toEqual(['Haircut']);
    expect(paged.body.data.pagination).toMatchObject({ page: 2, limit: 1, total: 2, totalPages: 2, hasNextPage: false });
    expect((await http(`${P}/services?limit=101`, { headers: h })).body.error.details.field).toBe('limit');
    expect((await http(`${P}/services?page=abc`, { headers: h })).status).toBe(400);

    const one = await http(`${P}/services/${service.id}`, { headers: h });
    expect(one.body.data).toMatchObject({ id: service.id, name: 'Haircut', durationMinutes: 60, cancellationPolicy: { hoursBefore: 24, refundPercent: 50 } });
    expect((await http(`${P}/services/${hidden.id}`, { headers: h })).status).toBe(404);
    expect((await http(`${P}/services/not-an-id`, { headers: h })).status).toBe(400);

    const team = await http(`${P}/services/${service.id}/staff`, { headers: h });
    expect(team.body.data.items.map((s: any) => s.name)).toEqual(['Stylist 1', 'Stylist 2']);
    // The storefront never sees staff contact details.
    expect(team.body.data.items.every((s: any) => s.email === null && s.phone === null)).toBe(true);
    const resources = await http(`${P}/services/${service.id}/resources`, { headers: h });
    expect(resources.body.data.items).toEqual([{ id: room.id, name: 'Chair A', type: 'equipment' }]);

    // Another tenant sees none of it.
    const other = await signupCompany('Elsewhere');
    const foreign = await http(`${P}/services/${service.id}`, { headers: { 'x-company-id': other.companyId } });
    expect(foreign.status).toBe(404);
    expect((await http(`${P}/services`, { headers: { 'x-company-id': other.companyId } })).body.data.items).toEqual([]);
  });

  it('GET /v6/merchant/bookings/services answers a merchant key, empty on a fresh company', async () => {
    const company = await signupCompany('Fresh Sandbox');
    const fresh = await http('/v6/merchant/bookings/services', { headers: bearer(company.apiKey) });
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ success: true, data: { items: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 1, hasNextPage: false } } });
    await callTool(await mcpClient(company.apiKey), 'create_service', { name: 'Intro call', durationMinutes: 15, price: '0', capacity: 1 });
    const merchant = await mcpClient(company.apiKey);
    const retired = await callTool(merchant, 'create_service', { name: 'Retired', durationMinutes: 15, price: '0', capacity: 1 });
    await callTool(merchant, 'update_service', { serviceId: retired.id, active: false });
    const listed = await http('/v6/merchant/bookings/services', { headers: bearer(company.apiKey) });
    expect(listed.body.data.items.map((s: any) => s.name)).toEqual(['Intro call']);
    expect((await callTool(merchant, 'list_services')).items.map((s: any) => s.name)).toEqual(['Intro call', 'Retired']);
    expect((await http('/v6/merchant/bookings/services')).status).toBe(401);
    expect((await http('/v6/merchant/bookings/services', { headers: { 'x-company-id': company.companyId } })).status).toBe(401);
  });

  it('lists each service with its own staff and resources, in name order, however many services share them', async () => {
    const { company, merchant } = await setupSalon({ staffCount: 0 });
    const staff: Record<string, string> = {};
    for (const name of ['Zoe', 'Ana', 'Mia']) staff[name] = (await callTool(merchant, 'create_staff_member', { name })).id;
    const rooms: Record<string, string> = {};
    for (const name of ['Studio', 'Annex']) rooms[name] = (await callTool(merchant, 'create_resource', { name, type: 'room' })).id;
    const linked: [string, string[], string[]][] = [
      ['A both', ['Zoe', 'Ana'], ['Studio', 'Annex']],
      ['B one', ['Mia'], []],
      ['C all', ['Mia', 'Zoe', 'Ana'], ['Annex']],
      ['D none', [], []],
    ];
    for (const [name, names, roomNames] of linked) {
      await callTool(merchant, 'create_service', {
        name,
        durationMinutes: 30,
        price: '10',
        capacity: 1,
        staffIds: names.map((n) => staff[n]),
        resourceIds: roomNames.map((n) => rooms[n]),
      });
    }
    const { data } = await fetchGraphql('{ services(limit: 50) { items { name staff { id name } resources { name } } } }', company.companyId);
    expect(data.services.items).toEqual([
      {
        name: 'A both',
        staff: [
          { id: staff.Ana, name: 'Ana' },
          { id: staff.Zoe, name: 'Zoe' },
        ],
        resources: [{ name: 'Annex' }, { name: 'Studio' }],
      },
      { name: 'B one', staff: [{ id: staff.Mia, name: 'Mia' }], resources: [] },
      {
        name: 'C all',
        staff: [
          { id: staff.Ana, name: 'Ana' },
          { id: staff.Mia, name: 'Mia' },
          { id: staff.Zoe, name: 'Zoe' },
        ],
        resources: [{ name: 'Annex' }],
      },
      { name: 'D none', staff: [], resources: [] },
      { name: 'Haircut', staff: [], resources: [] },
    ]);
  });

  it('lists 20 services with staff and resources in a constant number of statements', async () => {
    const measure = async (count: number) => {
      const { company, merchant, staff } = await setupSalon({ staffCount: 2 });
      const room = await callTool(merchant, 'create_resource', { name: 'Room', type: 'room' });
      for (let i = 1; i < count; i++)
        await callTool(merchant, 'create_service', {
          name: `Service ${i}`,
          durationMinutes: 30,
          price: '10',
          capacity: 1,
          staffIds: staff.map((s) => s.id),
          resourceIds: [room.id],
        });
      const query = '{ services(limit: 50) { items { id staff { id name } resources { id name } category { id } } } }';
      expect((await fetchGraphql(query, company.companyId)).data.services.items).toHaveLength(count);
      return (await statementsOf(() => fetchGraphql(query, company.companyId))).length;
    };
    const few = await measure(2);
    const many = await measure(20);
    expect(few).toBeGreaterThan(0);
    expect(many).toBe(few);
  });
});

async function fetchGraphql(query: string, companyId: string) {
  const res = await http('/graphql', { body: { query }, headers: { 'x-company-id': companyId } });
  return res.body;
}
