/** The staff tools' inputs, checked and normalised before the service sees them. */
import { z } from 'zod';
import { email, id, ifGiven, optionalText, phone, text } from '../../kernel/schemas.ts';
import type { NewStaffMember as StaffMemberFields } from '../services/staff-members.ts';

export const StaffMemberId = id('staff member');

export const NewStaffMember = z.object({
  name: text(120),
  email: ifGiven(email()),
  phone: ifGiven(phone()),
  title: optionalText(120),
}) satisfies z.ZodType<StaffMemberFields>;
