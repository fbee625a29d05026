/** GraphQL shapes of bookable times: a slot with who is free for it, and a day's slots. */
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTime } from '../../kernel/scalars.ts';
import type { Slot } from '../services/slots.ts';
import { ResourceNode, resourceNode } from './resource.types.ts';
import { StaffMemberNode, staffNode } from './staff-member.types.ts';

@ObjectType('Slot', { description: 'A bookable time, with the staff and resources free for it.' })
export class SlotNode {
  @Field(() => DateTime) start!: Date;
  @Field(() => DateTime) end!: Date;
  @Field(() => [StaffMemberNode]) staff!: StaffMemberNode[];
  @Field(() => [ResourceNode]) resources!: ResourceNode[];
  @Field(() => Int) capacity!: number;
  @Field(() => Int) remainingCapacity!: number;
}

@ObjectType('SlotList')
export class SlotList {
  @Field(() => ID) serviceId!: string;
  @Field(() => String, { description: 'The day, in the company time zone.' }) date!: string;
  @Field(() => String) timeZone!: string;
  @Field(() => [SlotNode]) items!: SlotNode[];
}

export const slotNode = (s: Slot): SlotNode => ({ ...s, staff: s.staff.map(staffNode), resources: s.resources.map(resourceNode) });
