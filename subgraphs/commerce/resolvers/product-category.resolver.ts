import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import * as categories from '../services/categories.ts';
import { CategoryId, CategoryUpdate, NewCategory } from './product-category.inputs.ts';
import { categoryNode, ProductCategoryInput, ProductCategoryNode, ProductCategoryPage } from './product-category.types.ts';

/** Product categories: managed by the merchant, listed on the storefront. */
@Resolver(() => ProductCategoryNode)
export class ProductCategoryResolver {
  @Requires('public', 'shop')
  @Query(() => ProductCategoryPage, { description: "The shop's product categories." })
  async shopCategories(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await categories.listCategories(ctx, args);
    return { ...page, items: page.items.map(categoryNode) };
  }

  @Requires('merchant', 'shop')
  @Query(() => ProductCategoryPage, { description: "The company's product categories." })
  async productCategories(
    @Ctx() ctx: RequestContext,
    @Args(() => ListArgs) args: ListArgs,
    @Arg('parentId', () => ID, { nullable: true, description: 'Only the categories directly inside this one.' }) parentId?: string,
  ) {
    const page = await categories.listCategories(ctx, { ...args, parentId: parse(CategoryId.nullish(), parentId, 'parentId') });
    return { ...page, items: page.items.map(categoryNode) };
  }

  @Requires('merchant', 'shop')
  @Mutation(() => ProductCategoryNode, { description: 'Creates a product category.' })
  async createProductCategory(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => ProductCategoryInput, { description: 'The category to create.' }) input: ProductCategoryInput,
  ) {
    return categoryNode(await categories.createCategory(ctx, parse(NewCategory, input)));
  }

  @Requires('merchant', 'shop')
  @Mutation(() => ProductCategoryNode, { description: 'Changes the given fields of a product category.' })
  async updateProductCategory(
    @Ctx() ctx: RequestContext,
    @Arg('categoryId', () => ID, { description: "The category's id." }) categoryId: string,
    @Arg('input', () => ProductCategoryInput, { description: 'The fields to change; fields left out keep their value, null clears an optional one.' })
    input: ProductCategoryInput,
  ) {
    return categoryNode(await categories.updateCategory(ctx, parse(CategoryId, categoryId, 'categoryId'), parse(CategoryUpdate, input)));
  }

  @Requires('merchant', 'shop')
  @Mutation(() => ProductCategoryNode, { description: 'Deletes an empty product category (409 while it has products or subcategories); returns it.' })
  async deleteProductCategory(@Ctx() ctx: RequestContext, @Arg('categoryId', () => ID, { description: "The category's id." }) categoryId: string) {
    return categoryNode(await categories.deleteCategory(ctx, parse(CategoryId, categoryId, 'categoryId')));
  }
}
