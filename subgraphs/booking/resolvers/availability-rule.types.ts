/** GraphQL shapes of working hours, shared by staff members and resources. */
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('Availability', { description: 'Working hours for a weekday (0 = Sunday) or one date; no times means a day off.' })
export class AvailabilityNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) ownerId!: string;
  @Field(() => Int, { nullable: true }) dayOfWeek?: number | null;
  @Field(() => String, { nullable: true }) date?: string | null;
  @Field(() => String, { nullable: true }) startTime?: string | null;
  @Field(() => String, { nullable: true }) endTime?: string | null;
  @Field(() => Boolean) available!: boolean;
}

@InputType()
export class AvailabilityInput {
  @Field(() => Int, { nullable: true, description: 'Weekly hours on this weekday, from 0 to 6 (0 = Sunday … 6 = Saturday); give dayOfWeek or date.' })
  dayOfWeek?: number;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD: a one-off change replacing that day’s weekly hours.' }) date?: string;
  @Field(() => String, { nullable: true, description: 'HH:MM; omit start and end for a day off.' }) startTime?: string;
  @Field(() => String, { nullable: true, description: 'HH:MM (24:00 for midnight).' }) endTime?: string;
}
