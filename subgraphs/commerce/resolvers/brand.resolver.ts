import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import * as brands from '../services/brands.ts';
import { BrandId, BrandUpdate, NewBrand } from './brand.inputs.ts';
import { BrandInput, BrandNode, brandNode, BrandPage } from './brand.types.ts';

/** Brands: managed by the merchant, listed on the storefront. */
@Resolver(() => BrandNode)
export class BrandResolver {
  @Requires('public', 'shop')
  @Query(() => BrandPage, { description: "The shop's brands." })
  async shopBrands(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await brands.listBrands(ctx, args);
    return { ...page, items: page.items.map(brandNode) };
  }

  @Requires('merchant', 'shop')
  @Query(() => BrandPage, { description: "The company's brands." })
  async brands(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await brands.listBrands(ctx, args);
    return { ...page, items: page.items.map(brandNode) };
  }

  @Requires('merchant', 'shop')
  @Mutation(() => BrandNode, { description: 'Creates a brand.' })
  async createBrand(@Ctx() ctx: RequestContext, @Arg('input', () => BrandInput, { description: 'The brand to create.' }) input: BrandInput) {
    return brandNode(await brands.createBrand(ctx, parse(NewBrand, input)));
  }

  @Requires('merchant', 'shop')
  @Mutation(() => BrandNode, { description: 'Changes the given fields of a brand.' })
  async updateBrand(
    @Ctx() ctx: RequestContext,
    @Arg('brandId', () => ID, { description: "The brand's id." }) brandId: string,
    @Arg('input', () => BrandInput, { description: 'The fields to change; fields left out keep their value, null clears an optional one.' }) input: BrandInput,
  ) {
    return brandNode(await brands.updateBrand(ctx, parse(BrandId, brandId, 'brandId'), parse(BrandUpdate, input)));
  }
}
