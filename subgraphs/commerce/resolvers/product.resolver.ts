import { Arg, Args, Ctx, Directive, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { Money } from '../../kernel/money.ts';
import { parse } from '../../kernel/schemas.ts';
import { brandOf } from '../services/brands.ts';
import { categoryOf } from '../services/categories.ts';
import { collectionIdsOf } from '../services/collections.ts';
import * as inventory from '../services/inventory.ts';
import * as catalog from '../services/products.ts';
import { BrandNode, brandNode } from './brand.types.ts';
import { categoryNode, ProductCategoryNode } from './product-category.types.ts';
import {
  ProductInput,
  ProductListArgs,
  ProductNode,
  productNode,
  ProductPage,
  ProductVariantNode,
  StockAdjustmentNode,
  StockAdjustmentPage,
  variantNode,
} from './product.types.ts';
import { NewProduct, ProductFilter, ProductId, ProductUpdate, StockChangeInput, VariantId } from './product.inputs.ts';

/** The products of the shop, as the merchant manages them. */
@Resolver(() => ProductNode)
export class ProductResolver {
  @Requires('merchant', 'shop')
  @Query(() => ProductPage, { description: "The company's products, newest first, in any state." })
  async products(@Ctx() ctx: RequestContext, @Args(() => ProductListArgs) args: ProductListArgs) {
    const page = await catalog.listProducts(ctx, parse(ProductFilter, args), { activeOnly: false });
    return { ...page, items: page.items.map(productNode) };
  }

  @Requires('merchant', 'shop')
  @Query(() => ProductNode, { description: 'One product with its variants and their stock.' })
  async product(@Ctx() ctx: RequestContext, @Arg('productId', () => ID, { description: "The product's id (from list_products)." }) productId: string) {
    return productNode(await catalog.getProduct(ctx, { id: parse(ProductId, productId, 'productId') }));
  }

  @Requires('merchant', 'shop')
  @Query(() => StockAdjustmentPage, { description: 'The stock changes of a variant, newest first.' })
  async stockAdjustments(
    @Ctx() ctx: RequestContext,
    @Arg('variantId', () => ID, { description: "The variant's id (from get_product)." }) variantId: string,
    @Args(() => ListArgs) args: ListArgs,
  ) {
    const page = await inventory.stockMovements(ctx, parse(VariantId, variantId, 'variantId'), args);
    return {
      ...page,
      items: page.items.map((m) => ({ id: m.id, variantId: m.variantId, delta: m.delta, stock: m.stockAfter, reason: m.reason, createdAt: m.createdAt })),
    };
  }

  @Requires('merchant', 'shop')
  @Mutation(() => ProductNode, { description: 'Creates a product with its variants (one default variant when none are given).' })
  async createProduct(@Ctx() ctx: RequestContext, @Arg('input', () => ProductInput, { description: 'The product to create.' }) input: ProductInput) {
    return productNode(await catalog.createProduct(ctx, parse(NewProduct, input)));
  }

  @Requires('merchant', 'shop')
  @Mutation(() => ProductNode, {
    description: 'Changes the given fields of a product; price, compare-at price, SKU and inventory tracking change its default variant.',
  })
  async updateProduct(
    @Ctx() ctx: RequestContext,
    @Arg('productId', () => ID, { description: "The product's id." }) productId: string,
    @Arg('input', () => ProductInput, {
      description: 'The fields to change; fields left out keep their value, null clears an optional one. Stock changes through adjustStock.',
    })
    input: ProductInput,
  ) {
    return productNode(await catalog.updateProduct(ctx, parse(ProductId, productId, 'productId'), parse(ProductUpdate, input)));
  }

  @Requires('merchant', 'shop')
  @Mutation(() => StockAdjustmentNode, { description: "Adds to or takes from a variant's stock, with a reason kept in its history; never below 0 (409)." })
  async adjustStock(
    @Ctx() ctx: RequestContext,
    @Arg('variantId', () => ID, { description: "The variant's id (from get_product)." }) variantId: string,
    @Arg('delta', () => Int, { description: 'Units to add (positive) or take off (negative), between -1000000 and 1000000; not 0.' }) delta: number,
    @Arg('reason', () => String, { description: 'Why, e.g. "delivery received" or "damaged"; kept in the history.' }) reason: string,
  ) {
    const { movement, stock } = await inventory.adjustStock(ctx, parse(StockChangeInput, { variantId, delta, reason }));
    return { id: movement.id, variantId: movement.variantId, delta: movement.delta, stock, reason: movement.reason, createdAt: movement.createdAt };
  }

  // Cost analysis (router/limits.ts): most products have a handful of variants (a size run, a few colours).
  @Directive('@listSize(assumedSize: 5)')
  @FieldResolver(() => [ProductVariantNode], { description: 'Its variants; the default one first.' })
  async variants(@Ctx() ctx: RequestContext, @Root() product: ProductNode) {
    return (await catalog.variantsOf(ctx, product.id)).map(variantNode);
  }

  @FieldResolver(() => Money, { description: "The default variant's price." })
  async price(@Ctx() ctx: RequestContext, @Root() product: ProductNode) {
    const variants = (await catalog.variantsOf(ctx, product.id)).map(variantNode);
    return (variants.find((v) => v.isDefault) ?? variants[0]).price;
  }

  @FieldResolver(() => ProductCategoryNode, { nullable: true })
  async category(@Ctx() ctx: RequestContext, @Root() product: ProductNode) {
    const row = await categoryOf(ctx, product.categoryId);
    return row ? categoryNode(row) : null;
  }

  @FieldResolver(() => BrandNode, { nullable: true })
  async brand(@Ctx() ctx: RequestContext, @Root() product: ProductNode) {
    const row = await brandOf(ctx, product.brandId);
    return row ? brandNode(row) : null;
  }

  @FieldResolver(() => [ID], { description: 'The collections it is in.' })
  async collectionIds(@Ctx() ctx: RequestContext, @Root() product: ProductNode) {
    return collectionIdsOf(ctx, product.id);
  }
}
