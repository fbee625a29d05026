import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { signupCompany, type Company } from './fixtures.ts';
import { callTool, mcpClient } from './mcp.ts';

export interface Salon {
  company: Company;
  merchant: Client;
  staff: { id: string; name: string }[];
  service: any;
}

/** A date `days` from today, as YYYY-MM-DD (UTC calendar; tests use days well away from midnight issues). */
export const dayFromNow = (days: number) => new Date(Date.now() + days * 86400000).toISOString().slice(0, 10);

/** Hours every weekday for a staff member or resource. */
export async function openAllWeek(
  merchant: Client,
  tool: 'set_staff_availability' | 'set_resource_availability',
  id: string,
  startTime = '09:00',
  endTime = '17:00',
) {
  const key = tool === 'set_staff_availability' ? 'memberId' : 'resourceId';
  for (let day = 0; day < 7; day++) await callTool(merchant, tool, { [key]: id, dayOfWeek: day, startTime, endTime });
}

/** A company with staff working 09:00–17:00 every day and a one-hour service they perform. */
export async function setupSalon(options: { staffCount?: number; service?: Record<string, unknown>; timeZone?: string } = {}): Promise<Salon> {
  const company = await signupCompany('Booking Salon');
  const merchant = await mcpClient(company.apiKey);
  if (options.timeZone) await callTool(merchant, 'update_company_settings', { timeZone: options.timeZone });
  const staff = [];
  for (let i = 0; i < (options.staffCount ?? 1); i++) {
    const member = await callTool(merchant, 'create_staff_member', { name: `Stylist ${i + 1}`, email: `stylist${i + 1}@salon.example`, title: 'Stylist' });
    await openAllWeek(merchant, 'set_staff_availability', member.id);
    staff.push(member);
  }
  const service = await callTool(merchant, 'create_service', {
    name: 'Haircut',
    durationMinutes: 60,
    price: '49.00',
    capacity: 1,
    staffIds: staff.map((s) => s.id),
    minimumNoticeMinutes: 0,
    bookingHorizonDays: 400,
    cancellationPolicy: { hoursBefore: 24, refundPercent: 50 },
    ...options.service,
  });
  return { company, merchant, staff, service };
}
