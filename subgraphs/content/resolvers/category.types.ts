/** GraphQL shapes of a content category and the input that creates one. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';

@ObjectType('ContentCategory')
export class ContentCategoryNode {
  @Field(() => ID) id!: string;
  @Field(() => String) name!: string;
  @Field(() => String) slug!: string;
  @Field(() => DateTime) createdAt!: Date;
}

export const ContentCategoryPage = PageOf(ContentCategoryNode, 'ContentCategoryPage');

@InputType()
export class CreateContentCategoryInput {
  @Field(() => String, { description: "The category's name." }) name!: string;
  @Field(() => String, { nullable: true, description: 'URL name of the category (default: made from the name).' }) slug?: string;
}
