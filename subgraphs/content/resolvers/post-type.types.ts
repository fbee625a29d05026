/** GraphQL shapes of a post type and its custom fields, and the inputs that create them. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { stateEnum } from '../../kernel/states.ts';
import type { FIELD_TYPES } from '../entities/post-type.ts';

/** The kinds of value a custom field holds (FIELD_TYPES; the service checks the value). */
export const PostFieldTypeEnum = stateEnum<(typeof FIELD_TYPES)[number]>('PostFieldType', 'The kind of value a custom field of a post type holds.', {
  text: 'A line or more of plain text.',
  number: 'A number.',
  boolean: 'true or false.',
  date: 'A date, YYYY-MM-DD.',
  image: 'An image URL.',
  url: 'An http(s) URL.',
  select: "One of the field's options (give options).",
  richtext: 'Formatted text (HTML).',
});

@ObjectType('PostTypeField')
export class PostTypeFieldNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) postTypeId!: string;
  @Field(() => String) key!: string;
  @Field(() => String) label!: string;
  @Field(() => PostFieldTypeEnum, { description: 'The kind of value the field holds.' }) fieldType!: string;
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
  @Field(() => String, { description: 'Name shown to people, e.g. "Recipes".' }) label!: string;
}

@InputType()
export class CreatePostTypeFieldInput {
  @Field(() => ID, { description: "The post type's id (from create_post_type)." }) postTypeId!: string;
  @Field(() => String, { description: 'Machine name of the field, e.g. minutes.' }) key!: string;
  @Field(() => String, { description: 'Label shown to people.' }) label!: string;
  @Field(() => PostFieldTypeEnum, { description: 'The kind of value the field holds.' }) fieldType!: string;
  @Field(() => Boolean, { nullable: true, description: 'Whether every post of the type must fill it in (default false).' }) required?: boolean;
  @Field(() => [String], { nullable: true, description: 'Choices of a select field.' }) options?: string[];
}
