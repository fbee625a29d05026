/** members' Customer as booking knows it: a reference by id. */
import { Directive, Field, ID, ObjectType } from 'type-graphql';

/** members' Customer, referenced by a booking and extended here with the customer's bookings. */
@ObjectType('Customer')
@Directive('@key(fields: "id")')
export class CustomerRef {
  @Field(() => ID) id!: string;
}
