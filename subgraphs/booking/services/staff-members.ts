/** Staff members: add and list them. */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import type { RowOf } from '../../kernel/tables.ts';
import { StaffMember } from '../entities/staff-member.ts';

/** A staff member as the edge checked them (email lower-cased, phone in E.164-like form). */
export interface NewStaffMember {
  name: string;
  email?: string | null;
  phone?: string | null;
  title?: string | null;
}

export async function createStaffMember(ctx: RequestContext, input: NewStaffMember) {
  const fields = { name: input.name, email: input.email ?? null, phone: input.phone ?? null, title: input.title ?? null };
  return ctx.transaction(async (tx) => tx.em.create(StaffMember, { id: newId(), ...fields, active: true }));
}

export async function listStaff(ctx: RequestContext, args: { page?: number | null; limit?: number | null; search?: string | null }) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('booking.staff_member').selectAll().orderBy('name').orderBy('id');
  if (req.search) select = select.where('name', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}

/** A staff member a booking names, batched with the request's other lookups (null when gone). */
export const findStaffMember = (ctx: RequestContext, memberId: string): Promise<RowOf<'booking.staff_member'> | null> =>
  ctx.find('booking.staff_member', memberId);
