/** GraphQL shapes of a page and the input that creates or changes one. */
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageOf } from '../../kernel/pagination.ts';
import { DateTime } from '../../kernel/scalars.ts';
import type { PublishState } from '../entities/block.ts';
import { BlockInput, BlockNode, PublishStateEnum } from './block.types.ts';

@ObjectType('Page')
export class PageNode {
  @Field(() => ID) id!: string;
  @Field(() => String) title!: string;
  @Field(() => String) slug!: string;
  @Field(() => PublishStateEnum) status!: PublishState;
  @Field(() => [BlockNode]) blocks!: BlockNode[];
  @Field(() => String, { nullable: true }) seoTitle?: string | null;
  @Field(() => String, { nullable: true }) seoDescription?: string | null;
  @Field(() => DateTime, { nullable: true }) publishedAt?: Date | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const PageList = PageOf(PageNode, 'PageList');

@InputType()
export class PageInput {
  @Field(() => String, { nullable: true, description: "The page's title. Required when creating." }) title?: string;
  @Field(() => String, { nullable: true, description: 'URL name of the page (default: made from the title).' }) slug?: string;
  @Field(() => [BlockInput], { nullable: true, description: "The page's content as blocks, in order." }) blocks?: BlockInput[];
  @Field(() => PublishStateEnum, { nullable: true, description: 'draft (the default for a new page) or published' }) status?: PublishState;
  @Field(() => String, { nullable: true, description: 'Title for search engines (default: the title).' }) seoTitle?: string;
  @Field(() => String, { nullable: true, description: 'Description for search engines.' }) seoDescription?: string;
}
