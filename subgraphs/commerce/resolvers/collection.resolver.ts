import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { Requires } from '../../kernel/access.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { ListArgs } from '../../kernel/pagination.ts';
import { parse } from '../../kernel/schemas.ts';
import * as collections from '../services/collections.ts';
import { CollectionId, CollectionUpdate, NewCollection, ProductIds } from './collection.inputs.ts';
import { CollectionInput, CollectionNode, collectionNode, CollectionPage } from './collection.types.ts';

/** Collections: managed by the merchant, listed on the storefront. */
@Resolver(() => CollectionNode)
export class CollectionResolver {
  @Requires('public', 'shop')
  @Query(() => CollectionPage, { description: "The shop's collections." })
  async shopCollections(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await collections.listCollections(ctx, args);
    return { ...page, items: page.items.map(collectionNode) };
  }

  @Requires('merchant', 'shop')
  @Query(() => CollectionPage, { description: "The company's collections." })
  async collections(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs) {
    const page = await collections.listCollections(ctx, args);
    return { ...page, items: page.items.map(collectionNode) };
  }

  @Requires('merchant', 'shop')
  @Mutation(() => CollectionNode, { description: 'Creates a collection, with products when given.' })
  async createCollection(
    @Ctx() ctx: RequestContext,
    @Arg('input', () => CollectionInput, { description: 'The collection to create.' }) input: CollectionInput,
  ) {
    return collectionNode(await collections.createCollection(ctx, parse(NewCollection, input)));
  }

  @Requires('merchant', 'shop')
  @Mutation(() => CollectionNode, {
    description: 'Changes the given fields of a collection (its products: addProductsToCollection, removeProductsFromCollection).',
  })
  async updateCollection(
    @Ctx() ctx: RequestContext,
    @Arg('collectionId', () => ID, { description: "The collection's id." }) collectionId: string,
    @Arg('input', () => CollectionInput, { description: 'The fields to change; fields left out keep their value.' }) input: CollectionInput,
  ) {
    return collectionNode(await collections.updateCollection(ctx, parse(CollectionId, collectionId, 'collectionId'), parse(CollectionUpdate, input)));
  }

  @Requires('merchant', 'shop')
  @Mutation(() => CollectionNode, { description: 'Puts products in a collection (ones already in it stay).' })
  async addProductsToCollection(
    @Ctx() ctx: RequestContext,
    @Arg('collectionId', () => ID, { description: "The collection's id." }) collectionId: string,
    @Arg('productIds', () => [ID], { description: 'The products to add (from list_products).' }) productIds: string[],
  ) {
    return collectionNode(await collections.addProducts(ctx, parse(CollectionId, collectionId, 'collectionId'), parse(ProductIds, productIds, 'productIds')));
  }

  @Requires('merchant', 'shop')
  @Mutation(() => CollectionNode, { description: 'Takes products out of a collection (the products stay in the shop).' })
  async removeProductsFromCollection(
    @Ctx() ctx: RequestContext,
    @Arg('collectionId', () => ID, { description: "The collection's id." }) collectionId: string,
    @Arg('productIds', () => [ID], { description: 'The products to take out.' }) productIds: string[],
  ) {
    return collectionNode(
      await collections.removeProducts(ctx, parse(CollectionId, collectionId, 'collectionId'), parse(ProductIds, productIds, 'productIds')),
    );
  }
}
