import { Arg, Args, Ctx, Field, FieldResolver, ID, InputType, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import * as staff from '../services/staff.ts';
import { resourceNode, staffNode } from './mappers.ts';
import { AvailabilityInput, AvailabilityNode, ResourceNode, StaffMemberNode, StaffMemberPage } from './types.ts';

@InputType()
export class CreateStaffMemberInput {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String, { nullable: true }) phone?: string;
  @Field(() => String, { nullable: true }) title?: string;
}

@InputType()
export class CreateResourceInput {
  @Field(() => String) name!: string;
  @Field(() => String, { description: 'room, equipment, …' }) type!: string;
}

@InputType()
export class StaffAvailabilityInput extends AvailabilityInput {
  @Field(() => ID) memberId!: string;
}

@InputType()
export class ResourceAvailabilityInput extends AvailabilityInput {
  @Field(() => ID) resourceId!: string;
}

/** Staff, resources and their working hours. */
@Resolver(() => StaffMemberNode)
export class StaffResolver {
  @Requires('merchant')
  @Query(() => StaffMemberPage)
  async staffMembers(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await staff.listStaff(ctx, args);
    return { ...page, items: page.items.map(staffNode) };
  }

  @Requires('merchant')
  @Mutation(() => StaffMemberNode, { description: 'Adds a staff member.' })
  async createStaffMember(@Ctx() ctx: RequestContext, @Arg('input', () => CreateStaffMemberInput) input: CreateStaffMemberInput) {
    return staffNode(await staff.createStaffMember(ctx, input));
  }

  @Requires('merchant')
  @Mutation(() => AvailabilityNode, { description: 'Sets weekly hours (dayOfWeek) or a one-off change (date) of a staff member.' })
  async setStaffAvailability(@Ctx() ctx: RequestContext, @Arg('input', () => StaffAvailabilityInput) input: StaffAvailabilityInput) {
    return staff.setAvailability(ctx, 'staff', 'memberId', input.memberId, input);
  }

  @Requires('merchant')
  @Mutation(() => ResourceNode, { description: 'Adds a room or piece of equipment.' })
  async createResource(@Ctx() ctx: RequestContext, @Arg('input', () => CreateResourceInput) input: CreateResourceInput) {
    return resourceNode(await staff.createResource(ctx, input));
  }

  @Requires('merchant')
  @Mutation(() => AvailabilityNode, { description: 'Sets weekly hours (dayOfWeek) or a one-off change (date) of a resource.' })
  async setResourceAvailability(@Ctx() ctx: RequestContext, @Arg('input', () => ResourceAvailabilityInput) input: ResourceAvailabilityInput) {
    return staff.setAvailability(ctx, 'resource', 'resourceId', input.resourceId, input);
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
