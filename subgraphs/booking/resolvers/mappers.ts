import { toMoney } from '../../kernel/money.ts';
import type { Service } from '../entities/catalog.ts';
import type { Resource, StaffMember } from '../entities/staff.ts';
import type { ResourceNode, ServiceNode, StaffMemberNode } from './types.ts';

export const serviceNode = (s: Service): ServiceNode => ({
  id: s.id,
  name: s.name,
  description: s.description ?? null,
  prepNotes: s.prepNotes ?? null,
  durationMinutes: s.durationMinutes,
  price: toMoney(s.priceMinor, s.currency),
  capacity: s.capacity,
  categoryId: s.categoryId ?? null,
  requiresStaff: s.requiresStaff,
  requiresResource: s.requiresResource,
  bufferBeforeMinutes: s.bufferBeforeMinutes,
  bufferAfterMinutes: s.bufferAfterMinutes,
  minimumNoticeMinutes: s.minimumNoticeMinutes,
  bookingHorizonDays: s.bookingHorizonDays,
  cancellationPolicy: s.cancellationPolicy,
  active: s.active,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

export const staffNode = (m: StaffMember): StaffMemberNode => ({ id: m.id, name: m.name, title: m.title ?? null, email: m.email ?? null, phone: m.phone ?? null });
export const resourceNode = (r: Resource): ResourceNode => ({ id: r.id, name: r.name, type: r.type });
