/** GraphQL shapes of a post and the input that creates or changes one. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime, JSONObject } from '../../kernel/scalars.ts';
import type { PublishState } from '../entities/block.ts';
import { BlockInput, BlockNode, PublishStateEnum } from './block.types.ts';

@ObjectType('Post')
export class PostNode {
  @Field(() => ID) id!: string;
  @Field(() => ID) postTypeId!: string;
  @Field(() => String) title!: string;
  @Field(() => String) slug!: string;
  @Field(() => PublishStateEnum) status!: PublishState;
  @Field(() => ID, { nullable: true }) categoryId?: string | null;
  @Field(() => JSONObject, { description: 'Values of the post type fields.' }) fields!: Record<string, unknown>;
  @Field(() => [BlockNode], { description: 'The blocks, in order.' }) blocks!: BlockNode[];
  @Field(() => String, { nullable: true }) excerpt?: string | null;
  @Field(() => DateTime, { nullable: true }) publishedAt?: Date | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const PostPage = PageOf(PostNode, 'PostPage');

@InputType()
export class PostInput {
  @Field(() => String, { nullable: true, description: 'Post type key (default "post").' }) type?: string;
  @Field(() => String, { nullable: true, description: "The post's title. Required when creating." }) title?: string;
  @Field(() => String, { nullable: true, description: 'Made from the title when omitted.' }) slug?: string;
  @Field(() => [BlockInput], { nullable: true, description: "The post's content as blocks, in order." }) blocks?: BlockInput[];
  @Field(() => ID, { nullable: true, description: 'The content category it belongs to (from create_category).' }) categoryId?: string;
  @Field(() => JSONObject, { nullable: true, description: 'Values of the post type fields, by key.' }) fields?: Record<string, unknown>;
  @Field(() => String, { nullable: true, description: 'A short summary shown in lists.' }) excerpt?: string;
  @Field(() => PublishStateEnum, { nullable: true, description: 'draft (the default for a new post) or published' }) status?: PublishState;
}
