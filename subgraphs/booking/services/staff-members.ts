/** Staff members: add and list them. */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { likePattern, pageRequest } from '../../kernel/pagination.ts';
import { normalizeEmail, normalizePhone, optionalText, requireText } from '../../kernel/validation.ts';
import { StaffMember } from '../entities/staff-member.ts';

export async function createStaffMember(ctx: RequestContext, input: { name?: string; email?: string | null; phone?: string | null; title?: string | null }) {
  const fields = {
    name: requireText('name', input.name, 120),
    email: input.email ? normalizeEmail('email', input.email) : null,
    phone: input.phone ? normalizePhone('phone', input.phone) : null,
    title: optionalText('title', input.title, 120) ?? null,
  };
  return ctx.transaction(async (tx) => tx.em.create(StaffMember, { id: newId(), ...fields, active: true }));
}

export async function listStaff(ctx: RequestContext, args: { page?: number | null; limit?: number | null; search?: string | null }) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('booking.staff_member').selectAll().orderBy('name').orderBy('id');
  if (req.search) select = select.where('name', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}
