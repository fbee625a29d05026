import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import * as categories from '../services/categories.ts';
import { NewCategory } from './category.inputs.ts';
import { ContentCategoryNode, ContentCategoryPage, CreateContentCategoryInput } from './category.types.ts';

/** Content categories: listed for storefronts, created by the merchant. */
@Resolver(() => ContentCategoryNode)
export class ContentCategoryResolver {
  // Storefront reads.
  @Requires('public', 'content')
  @Query(() => ContentCategoryPage, { description: 'Content categories.' })
  async contentCategories(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    return categories.listCategories(ctx, { ...args, limit: args.limit ?? 100 });
  }

  // Merchant.
  @Requires('merchant', 'content')
  @Mutation(() => ContentCategoryNode)
  async createContentCategory(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CreateContentCategoryInput, { description: 'The category to create.' }) input: CreateContentCategoryInput,
  ) {
    return categories.createCategory(ctx, parse(NewCategory, input));
  }
}
