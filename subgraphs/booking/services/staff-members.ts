/** Staff members: add and list them. */
import type { RequestContext } from '../../kernel/context.ts';
import { newId } from '../../kernel/ids.ts';
import { requireWithinLimit } from '../../kernel/plans.ts';
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

/** A new active staff member, within the plan's number of staff members (402 PLAN_LIMIT_REACHED beyond). */
export async function createStaffMember(ctx: RequestContext, input: NewStaffMember) {
  const fields = { name: input.name, email: input.email ?? null, phone: input.phone ?? null, title: input.title ?? null };
  return ctx.transaction(async (tx) => {
    await requireWithinLimit(tx, 'staffMembers', async () => (await activeStaff(tx)) + 1, 'active staff members');
    return tx.em.create(StaffMember, { id: newId(), ...fields, active: true });
  });
}

const activeStaff = async (tx: RequestContext) =>
  Number(
    (
      await tx.query
        .selectFrom('booking.staff_member')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('active', '=', true)
        .executeTakeFirstOrThrow()
    ).n,
  );

export async function listStaff(ctx: RequestContext, args: { page?: number | null; limit?: number | null; search?: string | null }) {
  const req = pageRequest(args);
  let select = ctx.query.selectFrom('booking.staff_member').selectAll().orderBy('name').orderBy('id');
  if (req.search) select = select.where('name', 'ilike', likePattern(req.search));
  return ctx.page(select, req);
}

/** A staff member a booking names, batched with the request's other lookups (null when gone). */
export const findStaffMember = (ctx: RequestContext, memberId: string): Promise<RowOf<'booking.staff_member'> | null> =>
  ctx.find('booking.staff_member', memberId);
