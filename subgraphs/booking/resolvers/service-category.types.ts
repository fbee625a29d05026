/** GraphQL shapes of a service category and the input that creates one. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { DateTime } from '../../kernel/scalars.ts';

@ObjectType('ServiceCategory')
export class ServiceCategoryNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => DateTime) createdAt!: Date;
}

@InputType()
export class CreateServiceCategoryInput {
  @Field(() => String, { description: 'The category\'s name, e.g. "Massages".' }) name!: string;
}
