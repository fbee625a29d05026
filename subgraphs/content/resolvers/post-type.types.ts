/** GraphQL shapes of a post type and its custom fields, and the inputs that create them. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';

@ObjectType('PostTypeField')
export class PostTypeFieldNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) postTypeId!: string;
  @Field(() => String) key!: string;
  @Field(() => String) label!: string;
  @Field(() => String, { description: 'text, number, boolean, date, image, url, select or richtext' }) fieldType!: string;
  @Field(() => Boolean) required!: boolean;
  @Field(() => [String], { nullable: true }) options?: string[] | null;
}

@ObjectType('PostType')
export class PostTypeNode {
  @Field(() => ID) id!: string;
  @Field(() => String) key!: string;
  @Field(() => String) label!: string;
}

@InputType()
export class CreatePostTypeInput {
  @Field(() => String, { description: 'Lower-case key, e.g. "recipe".' }) key!: string;
  @Field(() => String) label!: string;
}

@InputType()
export class CreatePostTypeFieldInput {
  @Field(() => ID) postTypeId!: string;
  @Field(() => String) key!: string;
  @Field(() => String) label!: string;
  @Field(() => String, { description: 'text, number, boolean, date, image, url, select or richtext' }) fieldType!: string;
  @Field(() => Boolean, { nullable: true }) required?: boolean;
  @Field(() => [String], { nullable: true, description: 'Choices of a select field.' }) options?: string[];
}
