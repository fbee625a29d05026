/** GraphQL shapes of bookable times: a slot with who is free for it, and a day's slots. */
import { Directive, Field, ID, Int, ObjectType } from 'type-graphql';
import { PageOf, Pagination } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';
import type { Slot } from '../services/slots.ts';
import { ResourceNode, resourceNode } from './resource.types.ts';
import { StaffMemberNode, staffNode } from './staff-member.types.ts';

@ObjectType('Slot', { description: 'A bookable time, with the staff and resources free for it.' })
export class SlotNode {
  @Field(() => DateTime) start!: Date;
  @Field(() => DateTime) end!: Date;
  // Cost analysis (router/limits.ts): who is free at one time for one service is a handful, not
  // the default list size; a day's page of slots is then weighed by its limit alone.
  @Directive('@listSize(assumedSize: 5)')
  @Field(() => [StaffMemberNode])
  staff!: StaffMemberNode[];
  @Directive('@listSize(assumedSize: 5)')
  @Field(() => [ResourceNode])
  resources!: ResourceNode[];
  @Field(() => Int) capacity!: number;
  @Field(() => Int) remainingCapacity!: number;
}

@ObjectType('SlotList', { description: "A page of a service's open times on a day, with the day and the time zone they are in." })
export class SlotList {
  @Field(() => ID) serviceId!: string;
  @Field(() => String, { description: 'The day, in the company time zone.' }) date!: string;
  @Field(() => String) timeZone!: string;
  @Field(() => [SlotNode]) items!: SlotNode[];
  @Field(() => Pagination) pagination!: Pagination;
}

export const SlotPage = PageOf(SlotNode, 'SlotPage');

export const slotNode = (s: Slot): SlotNode => ({ ...s, staff: s.staff.map(staffNode), resources: s.resources.map(resourceNode) });
