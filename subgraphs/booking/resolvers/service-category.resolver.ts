import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { parse } from '../../kernel/schemas.ts';
import * as categories from '../services/service-categories.ts';
import { NewServiceCategory } from './service-category.inputs.ts';
import { CreateServiceCategoryInput, ServiceCategoryNode } from './service-category.types.ts';

/** Service categories, managed by the merchant. */
@Resolver(() => ServiceCategoryNode)
export class ServiceCategoryResolver {
  @Requires('merchant', 'booking')
  @Query(() => [ServiceCategoryNode])
  async serviceCategories(@Ctx() ctx: RequestContext) {
    return categories.listCategories(ctx);
  }

  @Requires('merchant', 'booking')
  @Mutation(() => ServiceCategoryNode, { description: 'Creates a group for services.' })
  async createServiceCategory(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CreateServiceCategoryInput, { description: 'The category to create.' }) input: CreateServiceCategoryInput,
  ) {
    return categories.createCategory(ctx, parse(NewServiceCategory, input));
  }
}
