/** GraphQL shapes of a resource (room, equipment) and the inputs that add one and set its hours. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import type { Resource } from '../entities/resource.ts';
import { AvailabilityInput } from './availability-rule.types.ts';

@ObjectType('Resource', { description: 'A room or piece of equipment a service uses.' })
export class ResourceNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) type!: string;
}

export const ResourcePage = PageOf(ResourceNode, 'ResourcePage');

@InputType()
export class CreateResourceInput {
  @Field(() => String, { description: 'The resource\'s name, e.g. "Room 1".' }) name!: string;
  @Field(() => String, { description: 'room, equipment, …' }) type!: string;
}

@InputType()
export class ResourceAvailabilityInput extends AvailabilityInput {
  @Field(() => ID, { description: "The resource's id (from create_resource)." }) resourceId!: string;
}

export const resourceNode = (r: Resource): ResourceNode => ({ id: r.id, name: r.name, type: r.type });
