import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import { setAvailability } from '../services/availability-rules.ts';
import * as staff from '../services/staff-members.ts';
import { DayHours } from './availability-rule.inputs.ts';
import { AvailabilityNode } from './availability-rule.types.ts';
import { NewStaffMember, StaffMemberId } from './staff-member.inputs.ts';
import { CreateStaffMemberInput, StaffAvailabilityInput, StaffMemberNode, StaffMemberPage, staffNode } from './staff-member.types.ts';

/** Staff members and their working hours. */
@Resolver(() => StaffMemberNode)
export class StaffMemberResolver {
  @Requires('merchant', 'booking')
  @Query(() => StaffMemberPage)
  async staffMembers(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await staff.listStaff(ctx, args);
    return { ...page, items: page.items.map(staffNode) };
  }

  @Requires('merchant', 'booking')
  @Mutation(() => StaffMemberNode, { description: 'Adds a staff member.' })
  async createStaffMember(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CreateStaffMemberInput, { description: 'The staff member to add.' }) input: CreateStaffMemberInput,
  ) {
    return staffNode(await staff.createStaffMember(ctx, parse(NewStaffMember, input)));
  }

  @Requires('merchant', 'booking')
  @Mutation(() => AvailabilityNode, { description: 'Sets weekly hours (dayOfWeek) or a one-off change (date) of a staff member.' })
  async setStaffAvailability(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => StaffAvailabilityInput, { description: 'Whose hours, and when.' }) input: StaffAvailabilityInput,
  ) {
    return setAvailability(ctx, 'staff', parse(StaffMemberId, input.memberId, 'memberId'), parse(DayHours, input));
  }

  /** Staff contact details are for the merchant, not the storefront. */
  @FieldResolver(() => String, { nullable: true })
  email(@Ctx() ctx: RequestContext, @Root() member: StaffMemberNode) {
    return ctx.principal.kind === 'merchant' ? member.email : null;
  }

  @FieldResolver(() => String, { nullable: true })
  phone(@Ctx() ctx: RequestContext, @Root() member: StaffMemberNode) {
    return ctx.principal.kind === 'merchant' ? member.phone : null;
  }
}
