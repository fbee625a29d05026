import { describe, expect, it } from 'vitest';
import { bearer, signInCustomer, signupCompany } from '../support/fixtures.ts';
import { graphql } from '../support/client.ts';
import { callTool, mcpClient, toolError } from '../support/mcp.ts';
import { dayFromNow, setupSalon } from '../support/booking.ts';
import { http } from '../support/client.ts';

const auditOf = async (apiKey: string, args: Record<string, unknown> = {}) =>
  (await callTool(await mcpClient(apiKey), 'list_audit_log', args)) as { items: any[]; pagination: { total: number } };

describe('audit log', () => {
  it('records merchant writes through MCP and GraphQL, with secrets redacted, failures included, per company', async () => {
    const company = await signupCompany('Audit Studio');
    const client = await mcpClient(company.apiKey);
    const staff = await callTool(client, 'create_staff_member', { name: 'Mia' });
    const key = await callTool(client, 'create_api_key', { name: 'Second key' });
    const failed = await toolError(client, 'create_service', {
      name: 'Cut',
      durationMinutes: 30,
      price: '10.00',
      capacity: 1,
      staffIds: ['0190d5a0-0000-7000-8000-000000000000'],
    });
    expect(failed.code).toBe('BAD_USER_INPUT');
    const viaGraphql = await graphql('mutation { createApiKey(input: { name: "From GraphQL" }) { id } }', {}, bearer(company.apiKey));
    expect(viaGraphql.body.errors).toBeUndefined();

    const { items } = await auditOf(company.apiKey);
    const byOperation = (op: string) => items.filter((e) => e.operation === op);
    const [created] = byOperation('createStaffMember');
    expect(created).toMatchObject({ interface: 'mcp', via: 'create_staff_member', outcome: 'ok', targetId: staff.id, actorType: 'api_key' });
    expect(created.arguments.input.name).toBe('Mia');
    expect(new Date(created.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const keys = byOperation('createApiKey');
    expect(keys.map((e) => e.interface).sort()).toEqual(['graphql', 'mcp']);
    expect(keys.find((e) => e.interface === 'mcp').targetId).toBe(key.id);
    expect(keys.find((e) => e.interface === 'graphql').via).toBeNull();
    // The secret the write returned never reaches the log.
    expect(JSON.stringify(items)).not.toContain(key.key);

    const [refused] = byOperation('createService');
    expect(refused).toMatchObject({ interface: 'mcp', outcome: 'BAD_USER_INPUT', targetId: null });

    // Newest first; filters by operation and actor; limit and offset.
    expect(new Date(items[0].createdAt).getTime()).toBeGreaterThanOrEqual(new Date(items[items.length - 1].createdAt).getTime());
    expect((await auditOf(company.apiKey, { operation: 'createApiKey' })).items).toHaveLength(2);
    expect((await auditOf(company.apiKey, { actor: created.actorId, limit: 1, offset: 1 })).items).toHaveLength(1);
    expect((await auditOf(company.apiKey, { from: new Date(Date.now() + 60_000).toISOString() })).items).toHaveLength(0);

    // Another company sees only its own.
    const other = await signupCompany('Audit Other');
    expect((await auditOf(other.apiKey)).pagination.total).toBe(0);
  });

  it('records a merchant write through a REST route, with the route', async () => {
    const { company, service } = await setupSalon();
    const slots = await http(`/v6/customer-portal/services/${service.id}/slots?date=${dayFromNow(5)}`, { headers: { 'x-company-id': company.companyId } });
    const slot = slots.body.data.items[0];
    const booked = await http('/v6/customer-portal/bookings/guest', {
      body: { serviceId: service.id, occurrenceStart: slot.start, occurrenceEnd: slot.end, customerName: 'Walk-in', customerPhone: '+15550100111' },
      headers: { 'x-company-id': company.companyId, ...bearer(company.apiKey) },
    });
    expect(booked.status).toBe(201);
    const [entry] = (await auditOf(company.apiKey, { operation: 'createGuestBooking' })).items;
    expect(entry).toMatchObject({ interface: 'rest', via: 'POST /v6/customer-portal/bookings/guest', outcome: 'ok', targetId: booked.body.data.id });
    expect(entry.arguments.input.customerName).toBe('Walk-in');
  });

  it('redacts codes and tokens, and leaves customer writes out', async () => {
    const company = await signupCompany('Audit Redact');
    const customer = await signInCustomer(company.companyId);
    const exchange = await graphql('mutation($t: String!) { exchangeLoginLink(token: $t) { companyId } }', { t: 'not-a-real-token' }, bearer(company.apiKey));
    expect(exchange.body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    const refresh = await graphql('mutation { refreshCustomerToken { token } }', {}, bearer(customer.token));
    expect(refresh.body.errors).toBeUndefined();
    const { items } = await auditOf(company.apiKey);
    const [attempt] = items.filter((e) => e.operation === 'exchangeLoginLink');
    expect(attempt.arguments).toEqual({ token: '[redacted]' });
    expect(attempt.outcome).toBe('UNAUTHENTICATED');
    expect(items.some((e) => e.operation === 'refreshCustomerToken')).toBe(false);
  });
});
