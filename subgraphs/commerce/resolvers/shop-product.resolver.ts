import { Arg, Args, Ctx, Directive, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { Money } from '../../kernel/money.ts';
import { parse } from '../../kernel/schemas.ts';
import { brandOf } from '../services/brands.ts';
import { categoryOf } from '../services/categories.ts';
import * as catalog from '../services/products.ts';
import { BrandNode, brandNode } from './brand.types.ts';
import { categoryNode, ProductCategoryNode } from './product-category.types.ts';
import { ProductFilter, ProductSlug } from './product.inputs.ts';
import {
  ShopProductListArgs,
  ShopProductNode,
  shopProductNode,
  ShopProductPage,
  ShopVariantNode,
  shopVariantNode,
  StockStatusEnum,
  type StockStatus,
} from './product.types.ts';

const BEST: StockStatus[] = ['IN_STOCK', 'LOW_STOCK', 'OUT_OF_STOCK'];

/** The storefront's products: active ones only, availability without counts. */
@Resolver(() => ShopProductNode)
export class ShopProductResolver {
  @Requires('public', 'shop')
  @Query(() => ShopProductPage, { description: "The shop's active products, newest first." })
  async shopProducts(@Ctx() ctx: RequestContext, @Args(() => ShopProductListArgs) args: ShopProductListArgs) {
    const page = await catalog.listProducts(ctx, parse(ProductFilter, args), { activeOnly: true });
    return { ...page, items: page.items.map(shopProductNode) };
  }

  @Requires('public', 'shop')
  @Query(() => ShopProductNode, { description: 'One active product by its slug, with its variants.' })
  async shopProduct(@Ctx() ctx: RequestContext, @Arg('slug', () => String, { description: "The product's slug." }) slug: string) {
    return shopProductNode(await catalog.getProduct(ctx, { slug: parse(ProductSlug, slug, 'slug') }, { activeOnly: true }));
  }

  // Cost analysis (router/limits.ts): most products have a handful of variants (a size run, a few colours).
  @Directive('@listSize(assumedSize: 5)')
  @FieldResolver(() => [ShopVariantNode], { description: 'Its variants; the default one first.' })
  async variants(@Ctx() ctx: RequestContext, @Root() product: ShopProductNode) {
    return (await catalog.variantsOf(ctx, product.id)).map(shopVariantNode);
  }

  @FieldResolver(() => Money, { description: "The default variant's price." })
  async price(@Ctx() ctx: RequestContext, @Root() product: ShopProductNode) {
    const variants = (await catalog.variantsOf(ctx, product.id)).map(shopVariantNode);
    return (variants.find((v) => v.isDefault) ?? variants[0]).price;
  }

  @FieldResolver(() => StockStatusEnum, { description: 'The best availability among its variants.' })
  async stockStatus(@Ctx() ctx: RequestContext, @Root() product: ShopProductNode) {
    const statuses = (await catalog.variantsOf(ctx, product.id)).map((v) => shopVariantNode(v).stockStatus);
    return BEST.find((s) => statuses.includes(s)) ?? 'OUT_OF_STOCK';
  }

  @FieldResolver(() => ProductCategoryNode, { nullable: true })
  async category(@Ctx() ctx: RequestContext, @Root() product: ShopProductNode) {
    const row = await categoryOf(ctx, product.categoryId);
    return row ? categoryNode(row) : null;
  }

  @FieldResolver(() => BrandNode, { nullable: true })
  async brand(@Ctx() ctx: RequestContext, @Root() product: ShopProductNode) {
    const row = await brandOf(ctx, product.brandId);
    return row ? brandNode(row) : null;
  }
}
