/** GraphQL shapes of a staff member and the inputs that add one and set their hours. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import type { StaffMember } from '../entities/staff-member.ts';
import { AvailabilityInput } from './availability-rule.types.ts';

@ObjectType('StaffMember', { description: 'A person who performs services. Contact details are shown to merchants only.' })
export class StaffMemberNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
}

export const StaffMemberPage = PageOf(StaffMemberNode, 'StaffMemberPage');

@InputType()
export class CreateStaffMemberInput {
  @Field(() => String, { description: "The staff member's full name." }) name!: string;
  @Field(() => String, { nullable: true, description: 'Email address (shown to merchants only).' }) email?: string;
  @Field(() => String, { nullable: true, description: 'Phone number (shown to merchants only).' }) phone?: string;
  @Field(() => String, { nullable: true, description: 'Job title shown to customers, e.g. "Senior stylist".' }) title?: string;
}

@InputType()
export class StaffAvailabilityInput extends AvailabilityInput {
  @Field(() => ID, { description: "The staff member's id (from create_staff_member)." }) memberId!: string;
}

export const staffNode = (m: StaffMember): StaffMemberNode => ({
  id: m.id,
  name: m.name,
  title: m.title ?? null,
  email: m.email ?? null,
  phone: m.phone ?? null,
});
