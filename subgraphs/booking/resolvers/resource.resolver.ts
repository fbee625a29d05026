import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { parse } from '../../kernel/schemas.ts';
import { setAvailability } from '../services/availability-rules.ts';
import { createResource } from '../services/resources.ts';
import { DayHours } from './availability-rule.inputs.ts';
import { AvailabilityNode } from './availability-rule.types.ts';
import { NewResource, ResourceId } from './resource.inputs.ts';
import { CreateResourceInput, ResourceAvailabilityInput, ResourceNode, resourceNode } from './resource.types.ts';

/** Resources (rooms, equipment) and their working hours. */
@Resolver(() => ResourceNode)
export class ResourceResolver {
  @Requires('merchant', 'booking')
  @Mutation(() => ResourceNode, { description: 'Adds a room or piece of equipment.' })
  async createResource(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CreateResourceInput, { description: 'The resource to create.' }) input: CreateResourceInput,
  ) {
    return resourceNode(await createResource(ctx, parse(NewResource, input)));
  }

  @Requires('merchant', 'booking')
  @Mutation(() => AvailabilityNode, { description: 'Sets weekly hours (dayOfWeek) or a one-off change (date) of a resource.' })
  async setResourceAvailability(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => ResourceAvailabilityInput, { description: 'Which resource, and when.' }) input: ResourceAvailabilityInput,
  ) {
    return setAvailability(ctx, 'resource', parse(ResourceId, input.resourceId, 'resourceId'), parse(DayHours, input));
  }
}
