/** GraphQL shape of who a request is made as. */
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('Viewer', { description: 'Who the request is made as.' })
export class Viewer {
  @Field(() => String, { description: 'anonymous, public, customer or merchant' }) kind!: string;
  @Field(() => ID, { nullable: true }) companyId?: string | null;
  @Field(() => ID, { nullable: true }) customerId?: string | null;
}
